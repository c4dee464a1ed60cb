import type { WebhookAttemptView, WebhookDeliveryView } from '@mediagen/shared';
import { formatTime } from './format-time';

const STATE_LABELS: Record<WebhookDeliveryView['state'], { text: string; className: string }> = {
  pending: {
    text: 'Pending',
    className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
  },
  delivered: {
    text: 'Delivered',
    className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  },
  failed: { text: 'Failed', className: 'bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-300' },
};

function attemptSummary(attempt: WebhookAttemptView): string {
  const answer = attempt.responseCode === null ? 'no answer' : `answered ${attempt.responseCode}`;
  const outcome = attempt.ok ? answer : `failed: ${attempt.error ?? answer}`;
  return `${outcome} in ${attempt.durationMs} ms`;
}

/** An endpoint's latest deliveries, newest first, each with every attempt made (time, answer, error). */
export function WebhookDeliveries({ deliveries }: { deliveries: WebhookDeliveryView[] }) {
  if (deliveries.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">No deliveries yet.</p>;
  }
  return (
    <ul className="grid gap-3" aria-label="Deliveries">
      {deliveries.map((delivery) => {
        const state = STATE_LABELS[delivery.state];
        return (
          <li key={delivery.id} className="grid gap-1 rounded-xl bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
            <p className="flex flex-wrap items-center gap-2">
              <code className="font-mono font-semibold text-slate-900 dark:text-white">{delivery.type}</code>
              <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${state.className}`}>{state.text}</span>
              <span className="text-xs text-slate-500 dark:text-slate-400">{formatTime(delivery.createdAt)}</span>
            </p>
            <p className="font-mono text-xs break-all text-slate-500 dark:text-slate-400">webhook-id {delivery.id}</p>
            {delivery.attempts.length === 0 ? (
              <p className="text-slate-600 dark:text-slate-300">Not attempted yet.</p>
            ) : (
              <ol className="grid gap-0.5" aria-label="Attempts">
                {delivery.attempts.map((attempt, index) => (
                  <li
                    key={attempt.attemptedAt}
                    className={attempt.ok ? 'text-slate-700 dark:text-slate-200' : 'text-rose-700 dark:text-rose-300'}
                  >
                    Attempt {index + 1}, {formatTime(attempt.attemptedAt)}: {attemptSummary(attempt)}
                  </li>
                ))}
              </ol>
            )}
          </li>
        );
      })}
    </ul>
  );
}
