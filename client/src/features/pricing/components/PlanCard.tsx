import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SUPPORT_PATH, type BillingPeriod, type Plan } from '@mediagen/shared';
import { CheckIcon, CloseIcon } from '@/components/ui/icons';
import { priceLabel } from '../plan-price';

interface PlanCardProps {
  plan: Plan;
  period: BillingPeriod;
  /** What the card offers its reader (choose, upgrade, manage): the page decides from who is reading. */
  action: ReactNode;
}

export function PlanCard({ plan, period, action }: PlanCardProps) {
  const price = priceLabel(plan, period);
  return (
    <article
      aria-labelledby={`plan-${plan.id}`}
      className={`relative flex flex-col rounded-3xl border p-7 shadow-sm transition ${
        plan.highlighted
          ? 'border-violet-500 bg-white shadow-xl shadow-violet-500/15 ring-1 ring-violet-500 lg:-translate-y-3 dark:bg-slate-900'
          : 'border-slate-200 bg-white/80 dark:border-slate-800 dark:bg-slate-900/70'
      }`}
    >
      {plan.highlighted && (
        <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-gradient-to-r from-violet-600 to-fuchsia-600 px-3 py-1 text-xs font-bold tracking-wide text-white uppercase">
          Most popular
        </span>
      )}
      <h2 id={`plan-${plan.id}`} className="text-xl font-bold text-slate-900 dark:text-white">
        {plan.title}
      </h2>
      <p className="mt-4 flex items-baseline gap-1" data-testid={`price-${plan.id}`}>
        <span className="text-4xl font-extrabold tracking-tight text-slate-900 dark:text-white">{price.amount}</span>
        {price.per !== '' && <span className="text-slate-500 dark:text-slate-400">{price.per}</span>}
      </p>
      <ul className="mt-6 grid flex-1 content-start gap-3 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2 text-slate-700 dark:text-slate-300">
            <CheckIcon className="size-5 shrink-0 text-emerald-500" />
            {/* A plan's support line is a promise: it leads to where support is reached. */}
            {/support/i.test(feature) ? (
              <Link
                to={SUPPORT_PATH}
                className="underline decoration-violet-400 underline-offset-4 hover:text-violet-700 dark:hover:text-violet-300"
              >
                {feature}
              </Link>
            ) : (
              feature
            )}
          </li>
        ))}
        {plan.limitations?.map((limitation) => (
          <li key={limitation} className="flex gap-2 text-slate-500 dark:text-slate-400">
            <CloseIcon className="size-5 shrink-0" />
            {limitation}
          </li>
        ))}
      </ul>
      {action}
    </article>
  );
}
