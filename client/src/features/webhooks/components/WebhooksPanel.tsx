import { Link } from 'react-router-dom';
import type { WebhookEndpointCreated, WebhookEndpointList, WebhookEndpointView } from '@mediagen/shared';
import { OneTimeSecret } from '@/components/ui/OneTimeSecret';
import { ListNotReady } from '@/components/ui/ListNotReady';
import { useSecretList } from '@/lib/use-secret-list';
import { listWebhookEndpoints } from '../api/webhooks-api';
import { CreateWebhookForm } from './CreateWebhookForm';
import { WebhookEndpointRow } from './WebhookEndpointRow';

/**
 * The signed-in user's webhook endpoints: added here (the signing secret shown once), listed with their
 * state and deliveries, tested, re-enabled and deleted. A plan without API access reads that webhooks are
 * Enterprise's; endpoints kept from it stay listed and can be deleted.
 */
export function WebhooksPanel() {
  const [state, setState] = useSecretList<WebhookEndpointList, WebhookEndpointCreated>(
    listWebhookEndpoints,
    'Could not load your webhook endpoints.',
  );

  if (state.kind !== 'ready') return <ListNotReady state={state} loadingLabel="Loading your webhook endpoints..." />;

  const { list, created } = state;
  const update = (endpoints: WebhookEndpointView[], nowCreated: WebhookEndpointCreated | null) =>
    setState({ kind: 'ready', list: { ...list, endpoints }, created: nowCreated });
  const onCreated = (endpoint: WebhookEndpointCreated) => {
    const { secret: _secret, ...listed } = endpoint;
    // The list is oldest first, as the API answers it.
    update([...list.endpoints, listed], endpoint);
  };
  const onChanged = (changed: WebhookEndpointView) =>
    update(
      list.endpoints.map((endpoint) => (endpoint.id === changed.id ? changed : endpoint)),
      created,
    );
  const onDeleted = (id: string) =>
    update(
      list.endpoints.filter((endpoint) => endpoint.id !== id),
      created,
    );
  const full = list.endpoints.length >= list.maxEndpoints;

  return (
    <div className="grid gap-6">
      {!list.apiAccess && (
        <section className="card grid gap-2 p-6" aria-label="API access">
          <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Webhooks are part of Enterprise</h2>
          <p className="text-slate-600 dark:text-slate-300">
            Your plan does not include API access. Upgrade to Enterprise to have your programs told when a generation
            ends{list.endpoints.length > 0 ? '; the endpoints below are sent events again once you do' : ''}.
          </p>
          <Link to="/pricing" className="btn-primary justify-self-start">
            See plans
          </Link>
        </section>
      )}
      {created !== null && (
        <OneTimeSecret
          title={`Signing secret for ${created.url}`}
          label="Signing secret"
          secret={created.secret}
          warning="Copy it now: you won’t see it again. Your receiver needs it to check that each delivery comes from us."
          onDone={() => update(list.endpoints, null)}
        />
      )}
      {list.apiAccess && created === null && !full && <CreateWebhookForm onCreated={onCreated} />}
      {list.apiAccess && full && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          You have {list.maxEndpoints} endpoints, as many as an account may hold: delete one to add another.
        </p>
      )}
      <section aria-labelledby="webhook-endpoints-list" className="grid gap-3">
        <h2 id="webhook-endpoints-list" className="text-lg font-semibold text-slate-900 dark:text-white">
          Your endpoints
        </h2>
        {list.endpoints.length === 0 ? (
          <p className="text-slate-600 dark:text-slate-300">No endpoints yet.</p>
        ) : (
          <ul className="grid gap-3" aria-labelledby="webhook-endpoints-list">
            {list.endpoints.map((endpoint) => (
              <WebhookEndpointRow key={endpoint.id} endpoint={endpoint} onChanged={onChanged} onDeleted={onDeleted} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
