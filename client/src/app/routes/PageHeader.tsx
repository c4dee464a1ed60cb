import type { ReactNode } from 'react';

export function PageHeader({ eyebrow, title, children }: { eyebrow: string; title: string; children?: ReactNode }) {
  return (
    <header className="mx-auto max-w-3xl text-center">
      <p className="text-sm font-semibold tracking-wide text-violet-600 uppercase dark:text-violet-400">{eyebrow}</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
        {title}
      </h1>
      {children && <div className="mt-5 text-lg text-slate-600 dark:text-slate-300">{children}</div>}
    </header>
  );
}
