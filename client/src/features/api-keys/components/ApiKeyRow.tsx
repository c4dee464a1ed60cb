import { useState } from 'react';
import { API_KEY_SCOPES, type ApiKey } from '@mediagen/shared';
import { ApiRequestError } from '@/lib/api-client';
import { revokeApiKey } from '../api/api-keys-api';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const when = (iso: string | null, none: string) => (iso === null ? none : dateFormat.format(new Date(iso)));

/** One key as its owner sees it, and revoking it after a confirmation. */
export function ApiKeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: (id: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [revoking, setRevoking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const expired = apiKey.expiresAt !== null && Date.parse(apiKey.expiresAt) <= Date.now();

  async function revoke() {
    setRevoking(true);
    setError(null);
    try {
      await revokeApiKey(apiKey.id);
      onRevoked(apiKey.id);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : 'Could not revoke the key. Please try again.');
      setRevoking(false);
    }
  }

  return (
    <li className="card grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-semibold break-all text-slate-900 dark:text-white">{apiKey.name}</span>
          <span className="font-mono text-sm text-slate-500 dark:text-slate-400">mgk_…{apiKey.lastFour}</span>
          {expired && (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800 dark:bg-amber-500/15 dark:text-amber-300">
              Expired
            </span>
          )}
        </p>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Scopes: {API_KEY_SCOPES.filter((scope) => apiKey.scopes.includes(scope)).join(', ')}
        </p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Created {when(apiKey.createdAt, '')} · Last used {when(apiKey.lastUsedAt, 'never')} · Expires{' '}
          {when(apiKey.expiresAt, 'never')}
        </p>
        {error !== null && (
          <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {error}
          </p>
        )}
      </div>
      {confirming ? (
        <div role="group" aria-label={`Revoke ${apiKey.name}?`} className="grid gap-2 sm:justify-items-end">
          <p className="text-sm text-slate-700 dark:text-slate-200">Programs using it stop working at once.</p>
          <div className="flex gap-2">
            <button
              type="button"
              className="btn-secondary px-3 py-1.5 text-sm"
              disabled={revoking}
              onClick={() => setConfirming(false)}
            >
              Keep it
            </button>
            <button
              type="button"
              className="inline-flex items-center rounded-xl bg-rose-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-rose-500 disabled:opacity-50"
              disabled={revoking}
              onClick={() => void revoke()}
            >
              {revoking ? 'Revoking...' : 'Revoke key'}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="btn-secondary justify-self-start px-3 py-1.5 text-sm"
          aria-label={`Revoke ${apiKey.name}`}
          onClick={() => setConfirming(true)}
        >
          Revoke
        </button>
      )}
    </li>
  );
}
