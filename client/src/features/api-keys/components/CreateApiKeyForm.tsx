import { useId, useState, type FormEvent } from 'react';
import {
  API_KEY_EXPIRY_CHOICES,
  API_KEY_SCOPES,
  API_KEY_SCOPE_LABELS,
  MAX_API_KEY_NAME_LENGTH,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@mediagen/shared';
import { FormSubmit } from '@/components/ui/FormSubmit';
import { SelectField } from '@/components/ui/SelectField';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { createApiKey } from '../api/api-keys-api';

type Expiry = 'never' | `${(typeof API_KEY_EXPIRY_CHOICES)[number]}`;

/** Name, scopes and expiry of a new key; `onCreated` gets the answer that holds its secret. */
export function CreateApiKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([...API_KEY_SCOPES]);
  const [expiry, setExpiry] = useState<Expiry>('90');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scopesHint = useId();
  const headingId = useId();

  function toggle(scope: ApiKeyScope, checked: boolean) {
    setScopes((current) =>
      checked ? API_KEY_SCOPES.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope),
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (scopes.length === 0) {
      setError('Choose at least one scope.');
      return;
    }
    setSending(true);
    setError(null);
    try {
      const created = await createApiKey({
        name: name.trim(),
        scopes,
        ...(expiry === 'never' ? {} : { expiresInDays: Number(expiry) }),
      });
      setName('');
      onCreated(created);
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? failure.message : 'Could not create the key. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="card grid gap-5 p-6" aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900 dark:text-white">
        Create a key
      </h2>
      <TextField
        label="Name"
        required
        maxLength={MAX_API_KEY_NAME_LENGTH}
        placeholder="e.g. Nightly batch"
        value={name}
        onValueChange={setName}
      />
      <fieldset className="grid gap-2" aria-describedby={scopesHint}>
        <legend className="field-label">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
            <input
              type="checkbox"
              className="mt-0.5 size-4 accent-violet-600"
              checked={scopes.includes(scope)}
              onChange={(event) => toggle(scope, event.target.checked)}
            />
            <span>{API_KEY_SCOPE_LABELS[scope]}</span>
          </label>
        ))}
        <p id={scopesHint} className="text-xs text-slate-500 dark:text-slate-400">
          A key never opens billing, account deletion or key management: those need you signed in here.
        </p>
      </fieldset>
      <SelectField label="Expires" value={expiry} onChange={setExpiry}>
        {API_KEY_EXPIRY_CHOICES.map((days) => (
          <option key={days} value={String(days)}>
            In {days} days
          </option>
        ))}
        <option value="never">Never</option>
      </SelectField>
      <FormSubmit error={error} sending={sending} label="Create key" />
    </form>
  );
}
