import { CHECKOUT_OUTCOMES, CHECKOUT_RETURN_PARAM, type AccountUpdate, type CheckoutOutcome } from '@mediagen/shared';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { CheckoutReturn } from '@/features/billing/components/CheckoutReturn';
import { useGenerationSync } from '@/features/generations/hooks/use-generation-sync';
import { priceLabel, readPaymentState } from '@/features/pricing/plan-price';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

const isCheckoutOutcome = (value: string | null): value is CheckoutOutcome =>
  (CHECKOUT_OUTCOMES as readonly string[]).includes(value ?? '');

/**
 * /payment: where Stripe sends the browser back (`?checkout=success|canceled`), and where a plan chosen on
 * Pricing lands when it needs no checkout (Free) or checkout is not set up on this deployment.
 */
export function PaymentPage() {
  useDocumentTitle('Payment');
  const outcome = useSearchParams()[0].get(CHECKOUT_RETURN_PARAM);
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [liveUpdate, setLiveUpdate] = useState<AccountUpdate | null>(null);
  // The plan shows the moment the webhook has landed: the live socket says so.
  useGenerationSync(signedIn && outcome === 'success', { onAccountUpdate: setLiveUpdate });

  if (isCheckoutOutcome(outcome)) {
    return (
      <div className="mx-auto max-w-xl px-4 py-14 sm:px-6 sm:py-20">
        <CheckoutReturn outcome={outcome} signedIn={signedIn} liveUpdate={liveUpdate} />
      </div>
    );
  }
  return <ChosenPlan />;
}

/** A plan chosen on Pricing that is not bought here: Free needs no payment; otherwise checkout is not set up. */
function ChosenPlan() {
  const chosen = readPaymentState(useLocation().state);

  return (
    <div className="mx-auto max-w-xl px-4 py-14 sm:px-6 sm:py-20">
      <div className="card p-8">
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Payment</h1>
        {chosen === null ? (
          <>
            <p className="mt-3 text-slate-600 dark:text-slate-300">No plan was chosen. Pick a plan to continue.</p>
            <Link to="/pricing" className="btn-primary mt-6">
              Back to pricing
            </Link>
          </>
        ) : chosen.plan.price.monthly === 0 ? (
          <>
            <p className="mt-3 text-slate-600 dark:text-slate-300">
              The {chosen.plan.title} plan needs no payment: every account starts on it, with free tokens that renew
              every 30 days.
            </p>
            <PaymentLinks dashboardLabel="Start creating" />
          </>
        ) : (
          <>
            <div className="mt-6 rounded-2xl border border-violet-200 bg-violet-50 p-5 dark:border-violet-500/30 dark:bg-violet-500/10">
              <p className="text-sm text-violet-700 dark:text-violet-300">Selected plan</p>
              <p className="mt-1 text-xl font-semibold text-slate-900 dark:text-white">{chosen.plan.title}</p>
              <p className="mt-1 text-slate-700 dark:text-slate-300">
                {priceLabel(chosen.plan, chosen.period).amount}
                {priceLabel(chosen.plan, chosen.period).per} · billed {chosen.period}
              </p>
            </div>
            <p role="status" className="mt-6 text-slate-600 dark:text-slate-300">
              Checkout is not available yet. You have not been charged. Please check back soon.
            </p>
            <p className="mt-2 text-slate-600 dark:text-slate-300">
              Until then, an administrator can move your account to the {chosen.plan.title} plan on request.
            </p>
            <PaymentLinks dashboardLabel="Go to dashboard" />
          </>
        )}
      </div>
    </div>
  );
}

/** Back to the plans, or on to the dashboard. */
function PaymentLinks({ dashboardLabel }: { dashboardLabel: string }) {
  return (
    <div className="mt-6 flex flex-wrap gap-3">
      <Link to="/pricing" className="btn-secondary">
        Back to pricing
      </Link>
      <Link to="/dashboard" className="btn-primary">
        {dashboardLabel}
      </Link>
    </div>
  );
}
