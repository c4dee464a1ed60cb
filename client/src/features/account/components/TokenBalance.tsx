import { PLAN_TITLES, type Me } from '@mediagen/shared';

const LABELS = { image: 'Image', video: 'Video', speech: 'Speech' } as const;

export function TokenBalance({ me }: { me: Me }) {
  return (
    <section aria-label="Remaining tokens" className="flex flex-wrap items-center justify-center gap-2 text-sm">
      <span className="text-slate-500 dark:text-slate-400">{PLAN_TITLES[me.plan]} plan · Tokens left:</span>
      {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((kind) => (
        <span
          key={kind}
          className="rounded-full border border-slate-200 bg-white/70 px-3 py-1 font-medium text-slate-700 dark:border-slate-700 dark:bg-slate-900/70 dark:text-slate-200"
        >
          {LABELS[kind]} {me.tokens[kind]}/{me.allowance[kind]}
        </span>
      ))}
    </section>
  );
}
