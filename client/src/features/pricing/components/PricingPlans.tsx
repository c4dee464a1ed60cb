import { PLANS, type BillingPeriod, type Plan } from '@mediagen/shared';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { PaymentState } from '../plan-price';
import { BillingToggle } from './BillingToggle';
import { PlanCard } from './PlanCard';

export function PricingPlans() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const navigate = useNavigate();

  function choose(plan: Plan) {
    const state: PaymentState = { planId: plan.id, period };
    void navigate(plan.buttonLink, { state });
  }

  return (
    <div className="grid gap-12">
      <div className="flex justify-center">
        <BillingToggle period={period} onChange={setPeriod} />
      </div>
      <div className="grid gap-8 lg:grid-cols-3 lg:items-stretch">
        {PLANS.map((plan) => (
          <PlanCard key={plan.id} plan={plan} period={period} onChoose={choose} />
        ))}
      </div>
    </div>
  );
}
