import type { AccountUpdate, Me } from '@mediagen/shared';
import { useCallback, useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api-client';

export function getMe(): Promise<Me> {
  return apiRequest<Me>('/api/me');
}

/**
 * The signed-in user's balances, fetched fresh (the server is the authority on tokens), and kept current by
 * `applyUpdate` with what the server says when the plan or balance changes (the `account:update` event).
 */
export function useMe(enabled: boolean) {
  const [me, setMe] = useState<Me | null>(null);

  const refresh = useCallback(async () => {
    try {
      setMe(await getMe());
    } catch {
      // The balance is informative only; the server still refuses a generation without tokens.
    }
  }, []);

  useEffect(() => {
    if (enabled) void refresh();
    else setMe(null);
  }, [enabled, refresh]);

  const applyUpdate = useCallback((update: AccountUpdate) => {
    setMe((current) => (current === null ? current : { ...current, ...update }));
  }, []);

  return { me, refresh, applyUpdate };
}

/** Closes the account: the server deletes its generations, files and sessions, and the sign-in account. */
export function closeAccount(): Promise<void> {
  return apiRequest<void>('/api/me', { method: 'DELETE', body: { confirm: true } });
}
