import type { Generation, PlanId } from '@mediagen/shared';
import { lazy, Suspense, useId, useState } from 'react';
import { ShieldIcon } from '@/components/ui/icons';

// Fetched at the first open: most visits never open one, and the library's first download has a budget.
const ContentCredentialsDetails = lazy(async () => ({
  default: (await import('./ContentCredentialsDetails')).ContentCredentialsDetails,
}));

/** "Content Credentials" on a finished item: a disclosure of what its file's signed manifest says. */
export function ContentCredentials({ generation, plan }: { generation: Generation; plan: PlanId | undefined }) {
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const detailsId = useId();
  return (
    <div className="text-xs">
      <button
        type="button"
        className="inline-flex items-center gap-1.5 rounded-md py-1 font-semibold text-slate-600 transition hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-violet-500/40 focus-visible:outline-none dark:text-slate-300 dark:hover:text-white"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => {
          setOpen((value) => !value);
          setEverOpened(true);
        }}
      >
        <ShieldIcon className="size-4" />
        Content Credentials
        <span aria-hidden="true" className={`transition-transform ${open ? 'rotate-180' : ''}`}>
          ▾
        </span>
      </button>
      <div
        id={detailsId}
        hidden={!open}
        className="mt-1 grid gap-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-slate-700 dark:border-slate-700 dark:bg-slate-800/60 dark:text-slate-200"
      >
        {everOpened && (
          <Suspense fallback={<p>Reading…</p>}>
            <ContentCredentialsDetails generation={generation} plan={plan} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
