import { Link } from 'react-router-dom';
import type { ApiKey, ApiKeyList, CreatedApiKey } from '@mediagen/shared';
import { ListNotReady } from '@/components/ui/ListNotReady';
import { useSecretList } from '@/lib/use-secret-list';
import { listApiKeys } from '../api/api-keys-api';
import { ApiKeyRow } from './ApiKeyRow';
import { CreateApiKeyForm } from './CreateApiKeyForm';
import { NewKeySecret } from './NewKeySecret';

/**
 * The signed-in user's API keys: made here (the secret shown once), listed without their secrets, and
 * revoked. A plan without API access reads that the API is Enterprise's; keys kept from it can still be
 * revoked.
 */
export function ApiKeysPanel() {
  const [state, setState] = useSecretList<ApiKeyList, CreatedApiKey>(listApiKeys, 'Could not load your API keys.');

  if (state.kind !== 'ready') return <ListNotReady state={state} loadingLabel="Loading your API keys..." />;

  const { list, created } = state;
  const update = (keys: ApiKey[], nowCreated: CreatedApiKey | null) =>
    setState({ kind: 'ready', list: { ...list, keys }, created: nowCreated });
  const onCreated = (key: CreatedApiKey) => {
    const { secret: _secret, ...listed } = key;
    update([listed, ...list.keys], key);
  };
  const onRevoked = (id: string) =>
    update(
      list.keys.filter((key) => key.id !== id),
      created,
    );

  return (
    <div className="grid gap-6">
      {!list.apiAccess && (
        <section className="card grid gap-2 p-6" aria-label="API access">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">The API is part of Enterprise</h2>
          <p className="text-slate-600 dark:text-slate-300">
            Your plan does not include API access. Upgrade to Enterprise to create keys and call the API from your own
            programs{list.keys.length > 0 ? '; the keys below work again once you do' : ''}.
          </p>
          <Link to="/pricing" className="btn-primary justify-self-start">
            See plans
          </Link>
        </section>
      )}
      {created !== null && <NewKeySecret apiKey={created} onDone={() => update(list.keys, null)} />}
      {list.apiAccess && created === null && list.keys.length < list.maxKeys && (
        <CreateApiKeyForm onCreated={onCreated} />
      )}
      {list.apiAccess && list.keys.length >= list.maxKeys && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          You have {list.maxKeys} keys, as many as an account may hold: revoke one to create another.
        </p>
      )}
      <section aria-labelledby="api-keys-list" className="grid gap-3">
        <h2 id="api-keys-list" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your keys
        </h2>
        {list.keys.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">No keys yet.</p>
        ) : (
          <ul className="grid gap-3">
            {list.keys.map((key) => (
              <ApiKeyRow key={key.id} apiKey={key} onRevoked={onRevoked} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
