import { PLAN_FACTS, PLAN_IDS, type BillingPeriod, type PlanId } from '@mediagen/shared';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PlanAction } from '@/features/billing/components/PlanAction';
import { usePlanCheckout } from '@/features/billing/hooks/use-plan-checkout';
import { PricingPlans } from '@/features/pricing/components/PricingPlans';
import type { PaymentState } from '@/features/pricing/plan-price';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';
import { PageHeader } from './PageHeader';

const AuthModal = lazy(async () => ({ default: (await import('@/features/auth/components/AuthModal')).AuthModal }));

const titles = (watermark: boolean) =>
  PLAN_IDS.filter((plan) => PLAN_FACTS[plan].watermark === watermark)
    .map((plan) => PLAN_FACTS[plan].title)
    .join(' and ');

export function PricingPage() {
  useDocumentTitle('Pricing');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [signInOpen, setSignInOpen] = useState(false);
  const navigate = useNavigate();
  // The payment page for a plan that needs no checkout (Free), or while checkout is not set up here.
  const toPaymentPage = (planId: PlanId, period: BillingPeriod) => {
    const state: PaymentState = { planId, period };
    void navigate('/payment', { state });
  };
  const checkout = usePlanCheckout({
    signedIn,
    onRequireSignIn: () => setSignInOpen(true),
    onUnavailable: (choice) => toPaymentPage(choice.plan, choice.period),
  });

  return (
    <div className="mx-auto grid max-w-7xl gap-14 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Pricing" title="Simple, transparent pricing">
        <p>Start free, upgrade when you need more. Yearly billing saves up to 20%.</p>
      </PageHeader>
      <PricingPlans
        actionFor={(plan, period) => (
          <PlanAction
            plan={plan}
            period={period}
            checkout={checkout}
            onChooseWithoutCheckout={() => toPaymentPage(plan.id, period)}
          />
        )}
      />
      <section aria-labelledby="watermark-title" className="card mx-auto max-w-3xl p-7 text-center">
        <h2 id="watermark-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          About watermarks
        </h2>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Everything made on the {titles(true)} plan carries a MediaGen watermark that cannot be removed.{' '}
          {titles(false)} output has no watermark, and it is removed instantly when you upgrade.
        </p>
      </section>
      {signInOpen && (
        <Suspense fallback={null}>
          <AuthModal
            variant="sign-in-to-continue"
            onClose={() => {
              checkout.forget();
              setSignInOpen(false);
            }}
            onSignedIn={() => setSignInOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
