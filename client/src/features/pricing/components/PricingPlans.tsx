import { PLANS, type BillingPeriod, type Plan } from '@mediagen/shared';
import { useState, type ReactNode } from 'react';
import { BillingToggle } from './BillingToggle';
import { PlanCard } from './PlanCard';

/** The plans side by side for the chosen period; each card's action is the page's to give. */
export function PricingPlans({ actionFor }: { actionFor: (plan: Plan, period: BillingPeriod) => ReactNode }) {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');

  return (
    <div className="grid gap-12">
      <div className="flex justify-center">
        <BillingToggle period={period} onChange={setPeriod} />
      </div>
      <div className="grid gap-8 lg:grid-cols-3 lg:items-stretch">
        {PLANS.map((plan) => (
          <PlanCard key={plan.id} plan={plan} period={period} action={actionFor(plan, period)} />
        ))}
      </div>
    </div>
  );
}
