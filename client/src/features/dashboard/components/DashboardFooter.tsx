import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SUPPORT_PATH } from '@mediagen/shared';
import { Modal } from '@/components/ui/Modal';
import { POLICIES, type PolicyId } from '../policies';

const POLICY_ORDER: PolicyId[] = ['terms', 'privacy', 'conduct'];

export function DashboardFooter() {
  const [openPolicy, setOpenPolicy] = useState<PolicyId | null>(null);
  const policy = openPolicy === null ? null : POLICIES[openPolicy];

  return (
    <footer className="mt-12 border-t border-slate-200 pt-6 text-sm text-slate-500 dark:border-slate-800 dark:text-slate-400">
      <div className="flex flex-col items-center justify-between gap-3 sm:flex-row">
        <p>© 2024 MediaGen. All rights reserved.</p>
        <nav aria-label="Policies" className="flex flex-wrap justify-center gap-x-3">
          {POLICY_ORDER.map((id) => (
            <button
              key={id}
              type="button"
              // 44 px tall: a comfortable target for a finger.
              className="inline-flex min-h-11 items-center px-1 underline-offset-4 hover:text-violet-600 hover:underline dark:hover:text-violet-400"
              onClick={() => setOpenPolicy(id)}
            >
              {POLICIES[id].title}
            </button>
          ))}
          <Link
            to={SUPPORT_PATH}
            className="inline-flex min-h-11 items-center px-1 underline-offset-4 hover:text-violet-600 hover:underline dark:hover:text-violet-400"
          >
            Contact support
          </Link>
        </nav>
      </div>
      {policy !== null && (
        <Modal title={policy.title} size="lg" closeOnBackdropClick onClose={() => setOpenPolicy(null)}>
          <div className="grid gap-4 text-slate-600 dark:text-slate-300">
            {policy.sections.map((section) => (
              <section key={section.heading}>
                <h3 className="mb-1 font-semibold text-slate-900 dark:text-white">{section.heading}</h3>
                <p className="leading-relaxed">{section.body}</p>
                {section.link !== undefined && (
                  <Link
                    to={section.link.to}
                    className="mt-2 inline-flex min-h-11 items-center font-medium text-violet-700 underline-offset-4 hover:underline dark:text-violet-300"
                  >
                    {section.link.label}
                  </Link>
                )}
              </section>
            ))}
          </div>
        </Modal>
      )}
    </footer>
  );
}
