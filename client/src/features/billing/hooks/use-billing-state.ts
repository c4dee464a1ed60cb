import type { BillingState } from '@mediagen/shared';
import { useCallback, useEffect, useState } from 'react';
import { getBillingState } from '../api/billing-api';

export type BillingLoad =
  { status: 'idle' } | { status: 'loading' } | { status: 'loaded'; billing: BillingState } | { status: 'failed' };

/** The signed-in user's billing state, read when `enabled` turns on; `refresh` reads it again. */
export function useBillingState(enabled: boolean) {
  const [load, setLoad] = useState<BillingLoad>({ status: 'idle' });

  const refresh = useCallback(async () => {
    try {
      const billing = await getBillingState();
      setLoad({ status: 'loaded', billing });
      return billing;
    } catch {
      setLoad((current) => (current.status === 'loaded' ? current : { status: 'failed' }));
      return null;
    }
  }, []);

  useEffect(() => {
    if (!enabled) {
      setLoad({ status: 'idle' });
      return;
    }
    let current = true;
    setLoad({ status: 'loading' });
    getBillingState().then(
      (billing) => current && setLoad({ status: 'loaded', billing }),
      () => current && setLoad({ status: 'failed' }),
    );
    return () => {
      current = false;
    };
  }, [enabled]);

  return { load, billing: load.status === 'loaded' ? load.billing : null, refresh };
}
