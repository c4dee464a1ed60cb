import { LONG_TOAST_DURATION_MS } from '@mediagen/shared';
import { useEffect } from 'react';
import { notify } from '@/lib/notify';
import { useAuthStore } from '@/stores/auth-store';

/** Spec §4: once per sign-in, a 5-second toast with the balances, then hasShownWelcome is set. */
export function useWelcomeToast(): void {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const hasShownWelcome = useAuthStore((state) => state.hasShownWelcome);

  useEffect(() => {
    if (!isAuthenticated || hasShownWelcome) return;
    let canceled = false;
    fetchWelcome().then(
      (message) => {
        if (canceled) return;
        notify.success(message, { duration: LONG_TOAST_DURATION_MS });
        useAuthStore.getState().welcomeShown();
      },
      // Left unset on failure so the welcome is tried again on the next visit.
      () => undefined,
    );
    return () => {
      canceled = true;
    };
  }, [isAuthenticated, hasShownWelcome]);
}

// Every page runs this hook, but only a signed-in user needs the API client and the plan facts: they load
// with the call (the dashboard and Pricing share them) rather than with the landing page.
async function fetchWelcome() {
  const { fetchWelcomeMessage } = await import('../welcome-message');
  return fetchWelcomeMessage();
}
