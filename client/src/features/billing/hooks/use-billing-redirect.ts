import type { BillingRedirect } from '@mediagen/shared';
import { useCallback, useState } from 'react';
import { billingFailureMessage } from '../billing-words';
import { browserLocation } from '../browser-location';

/**
 * Asks the API where to go (Stripe's checkout or portal) and sends the browser there. Busy until the
 * browser leaves; a failure is said in words and changes nothing, so the same click can be tried again.
 */
export function useBillingRedirect() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const go = useCallback(async (request: () => Promise<BillingRedirect>) => {
    setBusy(true);
    setError(null);
    try {
      const { url } = await request();
      // Stays busy: the page is being replaced, and a second click would only ask again.
      browserLocation.assign(url);
    } catch (failure) {
      setError(billingFailureMessage(failure));
      setBusy(false);
    }
  }, []);

  return { busy, error, go };
}
