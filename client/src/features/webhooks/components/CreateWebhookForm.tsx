import { useId, useState, type FormEvent } from 'react';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpointCreated,
  type WebhookEventType,
} from '@mediagen/shared';
import { FormSubmit } from '@/components/ui/FormSubmit';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { createWebhookEndpoint } from '../api/webhooks-api';
import { WEBHOOK_EVENT_LABELS } from './event-labels';

/** URL, events and description of a new endpoint; `onCreated` gets the answer that holds its secret. */
export function CreateWebhookForm({ onCreated }: { onCreated: (endpoint: WebhookEndpointCreated) => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [description, setDescription] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const urlHint = useId();
  const headingId = useId();

  function toggle(event: WebhookEventType, checked: boolean) {
    setEvents((current) =>
      checked
        ? WEBHOOK_EVENT_TYPES.filter((e) => e === event || current.includes(e))
        : current.filter((e) => e !== event),
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (events.length === 0) {
      setError('Choose at least one event.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      const created = await createWebhookEndpoint({ url: url.trim(), events, description: description.trim() });
      setUrl('');
      setDescription('');
      onCreated(created);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : 'Could not add the endpoint. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="card grid gap-5 p-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
        Add an endpoint
      </h2>
      <TextField
        label="Endpoint URL"
        type="url"
        inputMode="url"
        required
        maxLength={MAX_WEBHOOK_URL_LENGTH}
        placeholder="https://example.com/webhooks/mediagen"
        aria-describedby={urlHint}
        value={url}
        onValueChange={setUrl}
      >
        <p id={urlHint} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          A public http(s) address that answers 2xx within 10 seconds.
        </p>
      </TextField>
      <fieldset className="grid gap-2">
        <legend className="field-label">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-violet-600"
              checked={events.includes(type)}
              onChange={(change) => toggle(type, change.target.checked)}
            />
            <span>
              <code className="font-mono break-all">{type}</code>: {WEBHOOK_EVENT_LABELS[type]}
            </span>
          </label>
        ))}
      </fieldset>
      <TextField
        label="Description (optional)"
        maxLength={MAX_WEBHOOK_DESCRIPTION_LENGTH}
        placeholder="e.g. Production order system"
        value={description}
        onValueChange={setDescription}
      />
      <FormSubmit error={error} sending={sending} label="Add endpoint" />
    </form>
  );
}
