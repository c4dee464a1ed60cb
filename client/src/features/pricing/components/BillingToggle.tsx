import { YEARLY_SAVING_LABEL, type BillingPeriod } from '@mediagen/shared';

const OPTIONS: { period: BillingPeriod; label: string }[] = [
  { period: 'monthly', label: 'Monthly' },
  { period: 'yearly', label: YEARLY_SAVING_LABEL },
];

export function BillingToggle({
  period,
  onChange,
}: {
  period: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Billing period"
      className="inline-flex rounded-full border border-slate-200 bg-white p-1 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      {OPTIONS.map((option) => (
        <button
          key={option.period}
          type="button"
          aria-pressed={period === option.period}
          onClick={() => onChange(option.period)}
          className={`rounded-full px-5 py-2 text-sm font-semibold transition ${
            period === option.period
              ? 'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white shadow'
              : 'text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
          }`}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
