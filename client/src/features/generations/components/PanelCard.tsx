import type { ReactNode } from 'react';
import { ResetIcon } from '@/components/ui/icons';

interface PanelCardProps {
  title: string;
  description: string;
  icon: ReactNode;
  onReset: () => void;
  /** Extra header actions, such as the image download. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * A generator column. Its actions appear on hover, on keyboard focus, and always on touch screens; where
 * they hide (wide screens with a mouse), they float over the header instead of holding its width, so the
 * description does not wrap around an empty space.
 */
export function PanelCard({ title, description, icon, onReset, actions, children }: PanelCardProps) {
  return (
    <section aria-label={`${title} generator`} className="card group relative flex min-w-0 flex-col gap-4 p-5 sm:p-6">
      <header className="flex items-start justify-between gap-3">
        <div className="flex items-center gap-3">
          <span className="inline-flex size-10 items-center justify-center rounded-xl bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-md shadow-violet-500/20">
            {icon}
          </span>
          <div>
            <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">{description}</p>
          </div>
        </div>
        <div className="flex shrink-0 gap-1 rounded-lg transition-opacity group-focus-within:opacity-100 group-hover:opacity-100 md:absolute md:top-4 md:right-4 md:bg-white/95 md:opacity-0 md:dark:bg-slate-900/95 [@media(hover:none)]:static [@media(hover:none)]:opacity-100">
          {actions}
          <button
            type="button"
            className="btn-icon"
            aria-label={`Reset ${title.toLowerCase()}`}
            title="Reset"
            onClick={onReset}
          >
            <ResetIcon />
          </button>
        </div>
      </header>
      {children}
    </section>
  );
}
