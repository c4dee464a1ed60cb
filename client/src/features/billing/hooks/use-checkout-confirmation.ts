import type { AccountUpdate, PaidPlanId, PlanId } from '@mediagen/shared';
import { useEffect, useState } from 'react';
import { getBillingState } from '../api/billing-api';
import { isPaidPlan } from '../billing-words';

/** The fallback for a missed `account:update`: the billing state is read this often until the plan shows. */
export const CONFIRMATION_POLL_MS = 3000;
/** Stripe's webhook usually lands in seconds; after this the page says that it can take longer. */
export const CONFIRMATION_PATIENCE_MS = 60_000;

const paid = (plan: PlanId | undefined): PaidPlanId | null => (plan !== undefined && isPaidPlan(plan) ? plan : null);

/**
 * After Stripe's checkout sends the browser back: the paid plan once the server has it (the webhook has
 * landed), never before. Heard live from `account:update`, or read from GET /api/billing every few seconds
 * in case the socket missed it; `slow` turns on when that takes longer than Stripe usually does.
 */
export function useCheckoutConfirmation(liveUpdate: AccountUpdate | null, enabled: boolean) {
  const [polledPlan, setPolledPlan] = useState<PlanId | undefined>(undefined);
  const [slow, setSlow] = useState(false);
  const confirmed = paid(liveUpdate?.plan) ?? paid(polledPlan);
  const waiting = enabled && confirmed === null;

  useEffect(() => {
    if (!waiting) return;
    let active = true;
    const poll = () =>
      getBillingState().then(
        (billing) => active && setPolledPlan(billing.plan),
        // The next poll tries again; the page already says it is confirming.
        () => undefined,
      );
    void poll();
    const polling = setInterval(() => void poll(), CONFIRMATION_POLL_MS);
    const patience = setTimeout(() => setSlow(true), CONFIRMATION_PATIENCE_MS);
    return () => {
      active = false;
      clearInterval(polling);
      clearTimeout(patience);
    };
  }, [waiting]);

  return { confirmed, slow };
}
