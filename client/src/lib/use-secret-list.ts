import { useEffect, useState } from 'react';
import { ApiRequestError } from '@/lib/api-client';

/** A list of things whose secret is shown once (API keys, webhook endpoints), as a page holds it. */
export type SecretListState<List, Created> =
  { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; list: List; created: Created | null };

/**
 * Loads the list once on mount; a failure reads the API's own message, else `failureMessage`. The page
 * changes it afterwards with the returned setter (a new item with its secret, a removal).
 */
export function useSecretList<List, Created>(load: () => Promise<List>, failureMessage: string) {
  const [state, setState] = useState<SecretListState<List, Created>>({ kind: 'loading' });
  useEffect(() => {
    let current = true;
    load().then(
      (list) => current && setState({ kind: 'ready', list, created: null }),
      (failure: unknown) =>
        current &&
        setState({
          kind: 'failed',
          message: failure instanceof ApiRequestError ? failure.message : failureMessage,
        }),
    );
    return () => {
      current = false;
    };
  }, [load, failureMessage]);
  return [state, setState] as const;
}
