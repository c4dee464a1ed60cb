import type { ReactNode } from 'react';

interface ResultFrameProps {
  children?: ReactNode;
  emptyHint: string;
  icon: ReactNode;
  shape: 'square' | 'wide';
}

/**
 * Where a result appears, with a hint while there is none. A square frame stops growing once the
 * panels stack in one wide column (tablets), where it would otherwise fill most of the screen.
 */
export function ResultFrame({ children, emptyHint, icon, shape }: ResultFrameProps) {
  return (
    <div
      className={`relative flex w-full ${shape === 'square' ? 'mx-auto aspect-square max-w-md' : 'aspect-video'} items-center justify-center overflow-hidden rounded-xl border border-dashed border-slate-300 bg-slate-100/60 dark:border-slate-700 dark:bg-slate-800/40`}
    >
      {children ?? (
        <div className="flex flex-col items-center gap-2 px-6 text-center text-sm text-slate-600 dark:text-slate-400">
          <span className="opacity-70 [&>svg]:size-10">{icon}</span>
          {emptyHint}
        </div>
      )}
    </div>
  );
}
