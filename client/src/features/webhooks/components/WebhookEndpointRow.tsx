import { useId, useState } from 'react';
import type { WebhookDeliveryView, WebhookEndpointView } from '@mediagen/shared';
import { ApiRequestError } from '@/lib/api-client';
import {
  deleteWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookDeliveries,
  sendWebhookTest,
} from '../api/webhooks-api';
import { formatTime } from './format-time';
import { WebhookDeliveries } from './WebhookDeliveries';

type Deliveries =
  | { kind: 'closed' }
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'shown'; deliveries: WebhookDeliveryView[] };

interface WebhookEndpointRowProps {
  endpoint: WebhookEndpointView;
  onChanged: (endpoint: WebhookEndpointView) => void;
  onDeleted: (id: string) => void;
}

const failureMessage = (failure: unknown, fallback: string) =>
  failure instanceof ApiRequestError ? failure.message : fallback;

/**
 * One endpoint as its owner sees it: its events, whether it is in service (and if not, why and since
 * when, with a way back), a test event, its recent deliveries with every attempt, and deleting it after a
 * confirmation.
 */
export function WebhookEndpointRow({ endpoint, onChanged, onDeleted }: WebhookEndpointRowProps) {
  const [busy, setBusy] = useState<'test' | 'enable' | 'delete' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deliveries, setDeliveries] = useState<Deliveries>({ kind: 'closed' });
  const deliveriesId = useId();
  const disabled = endpoint.status === 'disabled';
  const name = endpoint.description || endpoint.url;

  async function act(action: NonNullable<typeof busy>, work: () => Promise<void>, fallback: string) {
    setBusy(action);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (failure) {
      setError(failureMessage(failure, fallback));
    } finally {
      setBusy(null);
    }
  }

  async function loadDeliveries() {
    setDeliveries({ kind: 'loading' });
    try {
      const list = await listWebhookDeliveries(endpoint.id);
      setDeliveries({ kind: 'shown', deliveries: list.deliveries });
    } catch (failure) {
      setDeliveries({ kind: 'failed', message: failureMessage(failure, 'Could not load the deliveries.') });
    }
  }

  const sendTest = () =>
    act(
      'test',
      async () => {
        const sent = await sendWebhookTest(endpoint.id);
        setNotice(`Test event ${sent.id} queued.`);
        await loadDeliveries();
      },
      'Could not send the test event. Please try again.',
    );

  const enable = () =>
    act(
      'enable',
      async () => {
        onChanged(await enableWebhookEndpoint(endpoint.id));
        setNotice('Back in service: endings from now on are sent again.');
      },
      'Could not re-enable the endpoint. Please try again.',
    );

  const remove = () =>
    act(
      'delete',
      async () => {
        await deleteWebhookEndpoint(endpoint.id);
        onDeleted(endpoint.id);
      },
      'Could not delete the endpoint. Please try again.',
    );

  return (
    <li className="card grid gap-4 p-4" aria-label={name}>
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm font-semibold break-all text-slate-900 dark:text-white">
            {endpoint.url}
          </span>
          {disabled ? (
            <span className="rounded-full bg-rose-100 px-2 py-0.5 text-xs font-semibold text-rose-800 dark:bg-rose-500/15 dark:text-rose-300">
              Disabled
            </span>
          ) : (
            <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300">
              Active
            </span>
          )}
        </p>
        {endpoint.description !== '' && (
          <p className="text-sm break-words text-slate-700 dark:text-slate-200">{endpoint.description}</p>
        )}
        <p className="text-sm break-words text-slate-600 dark:text-slate-300">Events: {endpoint.events.join(', ')}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">Added {formatTime(endpoint.createdAt)}</p>
        {disabled && (
          <p className="text-sm text-rose-700 dark:text-rose-300">
            Disabled{endpoint.disabledAt === null ? '' : ` on ${formatTime(endpoint.disabledAt)}`}:{' '}
            {endpoint.disabledReason ?? 'deliveries kept failing.'} Nothing is sent to it until you re-enable it.
          </p>
        )}
      </div>

      <div className="flex flex-wrap gap-2">
        {disabled ? (
          <button
            type="button"
            className="btn-primary px-3 py-1.5 text-sm"
            disabled={busy !== null}
            onClick={() => void enable()}
          >
            {busy === 'enable' ? 'Re-enabling...' : 'Re-enable'}
          </button>
        ) : (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5 text-sm"
            disabled={busy !== null}
            onClick={() => void sendTest()}
          >
            {busy === 'test' ? 'Sending...' : 'Send test event'}
          </button>
        )}
        <button
          type="button"
          className="btn-secondary px-3 py-1.5 text-sm"
          aria-expanded={deliveries.kind !== 'closed'}
          aria-controls={deliveriesId}
          onClick={() => (deliveries.kind === 'closed' ? void loadDeliveries() : setDeliveries({ kind: 'closed' }))}
        >
          {deliveries.kind === 'closed' ? 'Show deliveries' : 'Hide deliveries'}
        </button>
        {!confirming && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5 text-sm"
            disabled={busy !== null}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        )}
      </div>

      {confirming && (
        <div role="group" aria-label={`Delete ${name}?`} className="grid gap-2">
          <p className="text-sm text-slate-700 dark:text-slate-200">
            Its deliveries and their history go with it; your receiver stops getting events at once.
          </p>
          <div className="flex gap-2">
            <button
              type="button"
              className="btn-secondary px-3 py-1.5 text-sm"
              disabled={busy !== null}
              onClick={() => setConfirming(false)}
            >
              Keep it
            </button>
            <button
              type="button"
              className="inline-flex items-center rounded-xl bg-rose-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-rose-500 disabled:opacity-50"
              disabled={busy !== null}
              onClick={() => void remove()}
            >
              {busy === 'delete' ? 'Deleting...' : 'Delete endpoint'}
            </button>
          </div>
        </div>
      )}

      {error !== null && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      <p role="status" className="text-sm text-slate-600 empty:hidden dark:text-slate-300">
        {notice}
      </p>

      <div id={deliveriesId} hidden={deliveries.kind === 'closed'} className="grid gap-2">
        {deliveries.kind !== 'closed' && (
          <div className="flex items-center justify-between gap-2">
            <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Recent deliveries</h3>
            <button
              type="button"
              className="text-sm font-medium text-violet-700 hover:underline disabled:opacity-50 dark:text-violet-300"
              disabled={deliveries.kind === 'loading'}
              onClick={() => void loadDeliveries()}
            >
              Refresh
            </button>
          </div>
        )}
        {deliveries.kind === 'loading' && (
          <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Loading the deliveries...
          </p>
        )}
        {deliveries.kind === 'failed' && (
          <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
            {deliveries.message}
          </p>
        )}
        {deliveries.kind === 'shown' && <WebhookDeliveries deliveries={deliveries.deliveries} />}
      </div>
    </li>
  );
}
