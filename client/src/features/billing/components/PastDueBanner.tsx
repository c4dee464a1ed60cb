import { openPortal } from '../api/billing-api';
import { pastDueMessage } from '../billing-words';
import { useBillingRedirect } from '../hooks/use-billing-redirect';
import { useBillingState } from '../hooks/use-billing-state';

/**
 * A signed-in creator whose last payment failed is told on the pages they work in, with the date the
 * grace period ends and the way to fix it; nothing shows otherwise.
 */
export function PastDueBanner() {
  const { billing } = useBillingState(true);
  const portal = useBillingRedirect();
  const message = billing === null ? null : pastDueMessage(billing);
  if (message === null) return null;
  return (
    <section
      role="status"
      aria-label="Payment problem"
      className="mb-6 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-900 dark:border-amber-500/40 dark:bg-amber-500/10 dark:text-amber-100"
    >
      <p className="min-w-0 flex-1 font-medium">{message}</p>
      <button
        type="button"
        className="btn-secondary px-4 py-2 text-sm"
        disabled={portal.busy}
        onClick={() => void portal.go(openPortal)}
      >
        {portal.busy ? 'Opening billing...' : 'Manage billing'}
      </button>
      {portal.error !== null && (
        <p role="alert" className="basis-full text-sm text-rose-700 dark:text-rose-300">
          {portal.error}
        </p>
      )}
    </section>
  );
}
