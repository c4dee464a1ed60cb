import { useState, type FormEvent } from 'react';
import {
  MAX_EMAIL_LENGTH,
  MAX_SUPPORT_MESSAGE_LENGTH,
  SUPPORT_TOPICS,
  SUPPORT_TOPIC_LABELS,
  type SupportTopic,
} from '@mediagen/shared';
import { SelectField } from '@/components/ui/SelectField';
import { FormSubmit } from '@/components/ui/FormSubmit';
import { MessageField } from '@/components/ui/MessageField';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth-store';
import { sendSupportRequest } from '../api/send-support-request';

type FormState =
  { kind: 'editing'; error: string | null } | { kind: 'sending' } | { kind: 'sent'; id: number; email: string };

export const isSupportTopic = (value: string | null): value is SupportTopic =>
  (SUPPORT_TOPICS as readonly string[]).includes(value ?? '');

/**
 * The support form (issue 37): email, topic and message, signed in or not. Signed in, the account's
 * email is filled in and may be changed. What the API refuses (a bad field, too many requests) is shown
 * above the button; once sent, the form gives way to what happens next.
 */
export function SupportForm({ initialTopic = 'other' }: { initialTopic?: SupportTopic }) {
  const { isAuthenticated, email: accountEmail } = useAuthStore();
  const [email, setEmail] = useState(accountEmail);
  const [topic, setTopic] = useState<SupportTopic>(initialTopic);
  const [message, setMessage] = useState('');
  const [state, setState] = useState<FormState>({ kind: 'editing', error: null });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmedEmail = email.trim();
    if (message.trim() === '') {
      setState({ kind: 'editing', error: 'Please write a message.' });
      return;
    }
    setState({ kind: 'sending' });
    try {
      const body = { topic, message, ...(trimmedEmail === '' ? {} : { email: trimmedEmail }) };
      const { id } = await sendSupportRequest(body, isAuthenticated);
      setState({ kind: 'sent', id, email: trimmedEmail === '' ? accountEmail : trimmedEmail });
    } catch (error) {
      const text =
        error instanceof ApiRequestError ? error.message : 'Your message could not be sent. Please try again.';
      setState({ kind: 'editing', error: text });
    }
  }

  if (state.kind === 'sent') {
    return (
      <div role="status" className="card grid gap-2 p-6">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Thanks, we have your message</h2>
        <p className="text-slate-600 dark:text-slate-300">
          Your request number is #{state.id}. We will reply by email to{' '}
          <span className="font-medium break-all">{state.email}</span>.
        </p>
      </div>
    );
  }

  const error = state.kind === 'editing' ? state.error : null;
  return (
    <form onSubmit={(event) => void submit(event)} className="card grid gap-5 p-6" noValidate={false}>
      <TextField
        label={isAuthenticated ? 'Email (we reply here)' : 'Your email'}
        type="email"
        required={!isAuthenticated}
        autoComplete="email"
        maxLength={MAX_EMAIL_LENGTH}
        value={email}
        onValueChange={setEmail}
      />
      <SelectField label="Topic" value={topic} onChange={setTopic}>
        {SUPPORT_TOPICS.map((id) => (
          <option key={id} value={id}>
            {SUPPORT_TOPIC_LABELS[id]}
          </option>
        ))}
      </SelectField>
      <MessageField label="Message" value={message} maxLength={MAX_SUPPORT_MESSAGE_LENGTH} onValueChange={setMessage} />
      <FormSubmit error={error} sending={state.kind === 'sending'} label="Send message" />
    </form>
  );
}
