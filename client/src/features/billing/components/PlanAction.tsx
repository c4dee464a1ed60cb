import {
  CONTACT_SALES_PATH,
  DEFAULT_TRIAL_DAYS,
  type BillingPeriod,
  type PaidPlanId,
  type Plan,
} from '@mediagen/shared';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { hasLiveSubscription, isPaidPlan, trialTerms } from '../billing-words';
import type { PlanCheckout } from '../hooks/use-plan-checkout';

/** The plan whose card offers the free trial (its button is the plan facts' "Start Free Trial"). */
const TRIAL_PLAN: PaidPlanId = 'pro';

interface PlanActionProps {
  plan: Plan;
  period: BillingPeriod;
  checkout: PlanCheckout;
  /** A plan that needs no checkout (Free): today's payment page, which says so. */
  onChooseWithoutCheckout: () => void;
}

/**
 * What a plan card offers the reader: their own plan is marked as theirs; with a running subscription the
 * other plans are changed in the portal; otherwise a paid plan starts checkout for the chosen period.
 */
export function PlanAction({ plan, period, checkout, onChooseWithoutCheckout }: PlanActionProps) {
  const errorId = useId();
  const trialId = useId();
  const { billing } = checkout;
  const busy = checkout.busyFor(plan.id);
  const error = checkout.errorFor(plan.id);
  const buttonClass = `w-full ${plan.highlighted ? 'btn-primary' : 'btn-secondary'}`;
  const offersTrial =
    plan.id === TRIAL_PLAN &&
    billing?.plan !== plan.id &&
    (billing === null || !hasLiveSubscription(billing)) &&
    (billing === null || billing.trialAvailable);
  // The trial's terms are said beside the button that starts it, from the server's setting once known.
  const trialDays = offersTrial ? (billing?.trialDays ?? DEFAULT_TRIAL_DAYS) : null;
  const described =
    [offersTrial ? trialId : null, error === null ? null : errorId].filter(Boolean).join(' ') || undefined;

  let action;
  if (billing?.plan === plan.id) {
    action = (
      <p className="rounded-xl border border-emerald-300 bg-emerald-50 px-5 py-2.5 text-center font-semibold text-emerald-800 dark:border-emerald-500/40 dark:bg-emerald-500/10 dark:text-emerald-200">
        Current plan
      </p>
    );
  } else if (billing !== null && hasLiveSubscription(billing)) {
    action = (
      <button
        type="button"
        className={buttonClass}
        disabled={busy}
        aria-describedby={described}
        onClick={() => checkout.manageBilling(plan.id)}
      >
        {busy ? 'Opening billing...' : 'Manage billing'}
      </button>
    );
  } else if (isPaidPlan(plan.id)) {
    const paidPlan = plan.id;
    action = (
      <button
        type="button"
        className={buttonClass}
        disabled={busy}
        aria-describedby={described}
        onClick={() => checkout.choose({ plan: paidPlan, period, wantsTrial: offersTrial })}
      >
        {busy ? 'Going to checkout...' : offersTrial ? plan.buttonText : `Upgrade to ${plan.title}`}
      </button>
    );
  } else {
    action = (
      <button type="button" className={buttonClass} onClick={onChooseWithoutCheckout}>
        {plan.buttonText}
      </button>
    );
  }

  return (
    <div className="mt-8 grid gap-3">
      {action}
      {trialDays !== null && (
        <p id={trialId} className="text-center text-sm text-slate-600 dark:text-slate-400">
          {trialTerms(trialDays, plan, period)}
        </p>
      )}
      {error !== null && (
        <p id={errorId} role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      {/* Enterprise is also sold by people: its plan-facts button leads to the sales form. */}
      {plan.id === 'enterprise' && billing?.plan !== plan.id && (
        <Link
          to={CONTACT_SALES_PATH}
          className="text-center text-sm font-semibold text-violet-700 underline underline-offset-4 hover:text-violet-600 dark:text-violet-300 dark:hover:text-violet-200"
        >
          {plan.buttonText}
        </Link>
      )}
    </div>
  );
}
