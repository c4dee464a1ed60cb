import { useEffect } from 'react';
import { afterFirstPaint } from '@/lib/after-first-paint';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useAuthStore } from '@/stores/auth-store';

/**
 * A returning user's session is confirmed with Firebase once the page has painted. Visitors who were
 * never signed in don't download the SDK until they open a sign-in form or the dashboard.
 */
export function useSessionRestore(): void {
  const wasSignedIn = useAuthStore((state) => state.isAuthenticated);
  useEffect(() => {
    if (!wasSignedIn) return;
    return afterFirstPaint(() => {
      loadFirebaseAuth().catch((error: unknown) => console.error('Could not load sign-in', error));
    });
  }, [wasSignedIn]);
}
