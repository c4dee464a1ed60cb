import { LONG_TOAST_DURATION_MS } from '@mediagen/shared';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { useAuthStore } from '@/stores/auth-store';
import { getMe } from '../api/get-me';
import { welcomeMessage } from '../welcome-message';

/** Spec §4: once per sign-in, a 5-second toast with the balances, then hasShownWelcome is set. */
export function useWelcomeToast(): void {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const hasShownWelcome = useAuthStore((state) => state.hasShownWelcome);

  useEffect(() => {
    if (!isAuthenticated || hasShownWelcome) return;
    let canceled = false;
    getMe().then(
      (me) => {
        if (canceled) return;
        toast.success(welcomeMessage(me.tokens), { duration: LONG_TOAST_DURATION_MS });
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
