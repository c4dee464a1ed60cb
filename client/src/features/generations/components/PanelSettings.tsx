import { useId, useState, type ReactNode } from 'react';

interface PanelSettingsProps {
  /** What the settings are of, for the button's accessible name ("Image settings"). */
  label: string;
  /** A short reading of the current choices, shown beside the button while it is closed. */
  summary: string;
  children: ReactNode;
}

/**
 * A panel's settings, closed by default so the first view stays a prompt and a button. The choices
 * stay in effect while it is closed: the summary says what they are.
 *
 * The fields are built the first time the settings open, and kept from then on: built closed, the three
 * panels' fields were a third of the dashboard's elements, made in the page's first long task for a
 * visitor who may never open them (Lighthouse's total blocking time on a phone).
 */
export function PanelSettings({ label, summary, children }: PanelSettingsProps) {
  const [open, setOpen] = useState(false);
  const [everOpened, setEverOpened] = useState(false);
  const regionId = useId();
  return (
    <div className="rounded-xl border border-slate-200 dark:border-slate-700">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-3 rounded-xl px-3.5 py-2.5 text-left text-sm font-medium text-slate-700 transition hover:bg-slate-100 focus-visible:ring-2 focus-visible:ring-violet-500/40 focus-visible:outline-none dark:text-slate-200 dark:hover:bg-slate-800"
        aria-expanded={open}
        aria-controls={regionId}
        onClick={() => {
          setOpen((value) => !value);
          setEverOpened(true);
        }}
      >
        <span className="shrink-0">{label}</span>
        <span className="flex min-w-0 items-center gap-2 text-xs font-normal text-slate-500 dark:text-slate-400">
          <span className="truncate">{summary}</span>
          <span aria-hidden="true" className={`transition-transform ${open ? 'rotate-180' : ''}`}>
            ▾
          </span>
        </span>
      </button>
      <div id={regionId} role="group" aria-label={label} hidden={!open} className="grid gap-3 px-3.5 pt-1 pb-3.5">
        {everOpened && children}
      </div>
    </div>
  );
}
