import { DEFAULT_PLAN_RULES, type PlanId } from '@mediagen/shared';
import { Link } from 'react-router-dom';

/**
 * Said beside a finished result while the owner's plan marks its output. The server picks the marked or
 * the clean file by the plan as it is at each request, so the plan to read is the current one: an upgrade
 * removes the mark from past results too. Nothing until the plan is known, so a paid creator never sees
 * it flash by.
 */
export function FreeMarkNotice({ plan }: { plan: PlanId | undefined }) {
  if (plan === undefined || !DEFAULT_PLAN_RULES[plan].watermark) return null;
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400">
      Free plan results carry the MediaGen mark.{' '}
      <Link
        to="/pricing"
        className="font-semibold text-violet-700 underline underline-offset-2 hover:text-violet-600 dark:text-violet-300 dark:hover:text-violet-200"
      >
        Upgrade
      </Link>{' '}
      to remove it.
    </p>
  );
}
