import { Link } from 'react-router-dom';
import { openPortal } from '../api/billing-api';
import { hasLiveSubscription, pendingChangeMessage } from '../billing-words';
import { useBillingRedirect } from '../hooks/use-billing-redirect';
import { useBillingState } from '../hooks/use-billing-state';

const ITEM =
  'rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:hover:bg-slate-800';

/**
 * The account menu's billing entries, read when the menu opens: a subscriber manages billing in Stripe's
 * portal (and reads a change waiting for the period's end); anyone else below the top plan is offered Pricing.
 */
export function BillingMenuItems({ onNavigate }: { onNavigate: () => void }) {
  const { billing } = useBillingState(true);
  const portal = useBillingRedirect();
  if (billing === null) return null;

  const pending = pendingChangeMessage(billing);
  return (
    <>
      {pending !== null && (
        <p className="px-3 py-1 text-xs font-semibold text-amber-800 dark:text-amber-300">{pending}</p>
      )}
      {hasLiveSubscription(billing) ? (
        <button type="button" className={ITEM} disabled={portal.busy} onClick={() => void portal.go(openPortal)}>
          {portal.busy ? 'Opening billing...' : 'Manage billing'}
        </button>
      ) : (
        billing.plan !== 'enterprise' && (
          <Link to="/pricing" className={ITEM} onClick={onNavigate}>
            Upgrade
          </Link>
        )
      )}
      {portal.error !== null && (
        <p role="alert" className="px-3 text-xs text-rose-700 dark:text-rose-300">
          {portal.error}
        </p>
      )}
    </>
  );
}
