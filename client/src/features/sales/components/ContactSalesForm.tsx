import {
  MAX_COMPANY_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_SUPPORT_MESSAGE_LENGTH,
  SALES_VOLUMES,
  SALES_VOLUME_LABELS,
  type SalesRequestBody,
  type SalesVolume,
} from '@mediagen/shared';
import { useState, type FormEvent } from 'react';
import { SelectField } from '@/components/ui/SelectField';
import { FormSubmit } from '@/components/ui/FormSubmit';
import { MessageField } from '@/components/ui/MessageField';
import { TextField } from '@/components/ui/TextField';
import { ApiRequestError } from '@/lib/api-client';
import { useAuthStore } from '@/stores/auth-store';
import { sendSalesRequest } from '../api/send-sales-request';

type FormState = { kind: 'editing'; error: string | null } | { kind: 'sending' } | { kind: 'sent'; email: string };

interface SalesFields {
  /** Null when signed in: the account's address is the one replied to. */
  email: string | null;
  company: string;
  volume: SalesVolume | '';
  message: string;
}

/** The request to send, or what is missing, in the order the form asks for it. */
function salesRequestFrom({ email, company, volume, message }: SalesFields): SalesRequestBody | string {
  if (email !== null && email.trim() === '') return 'Please enter your email so we can reply.';
  if (company.trim() === '') return 'Please enter your company.';
  if (volume === '') return 'Please choose your expected volume.';
  if (message.trim() === '') return 'Please write a message.';
  return { company, volume, message, ...(email === null ? {} : { email: email.trim() }) };
}

/**
 * Enterprise's "Contact Sales" (issue 38): company, expected volume and a message, signed in or not;
 * signed out, an email to reply to. What the API refuses is shown above the button; once sent, the form
 * gives way to what happens next. Operators read the request beside support messages.
 */
export function ContactSalesForm() {
  const { isAuthenticated, email: accountEmail } = useAuthStore();
  const [email, setEmail] = useState('');
  const [company, setCompany] = useState('');
  const [volume, setVolume] = useState<SalesVolume | ''>('');
  const [message, setMessage] = useState('');
  const [state, setState] = useState<FormState>({ kind: 'editing', error: null });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const request = salesRequestFrom({ email: isAuthenticated ? null : email, company, volume, message });
    if (typeof request === 'string') {
      setState({ kind: 'editing', error: request });
      return;
    }
    setState({ kind: 'sending' });
    try {
      await sendSalesRequest(request, isAuthenticated);
      setState({ kind: 'sent', email: isAuthenticated ? accountEmail : email.trim() });
    } catch (error) {
      const text =
        error instanceof ApiRequestError ? error.message : 'Your request could not be sent. Please try again.';
      setState({ kind: 'editing', error: text });
    }
  }

  if (state.kind === 'sent') {
    return (
      <div role="status" className="card grid gap-2 p-6">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">
          Thanks, our sales team has your request
        </h2>
        <p className="text-slate-600 dark:text-slate-300">
          We will reply by email to <span className="font-medium break-all">{state.email}</span>.
        </p>
      </div>
    );
  }

  const error = state.kind === 'editing' ? state.error : null;
  return (
    <form onSubmit={(event) => void submit(event)} className="card grid gap-5 p-6" noValidate>
      {!isAuthenticated && (
        <TextField
          label="Your email"
          type="email"
          required
          autoComplete="email"
          maxLength={MAX_EMAIL_LENGTH}
          value={email}
          onValueChange={setEmail}
        />
      )}
      <TextField
        label="Company"
        required
        autoComplete="organization"
        maxLength={MAX_COMPANY_LENGTH}
        value={company}
        onValueChange={setCompany}
      />
      <SelectField label="Expected volume" value={volume} onChange={setVolume}>
        <option value="" disabled>
          Choose one
        </option>
        {SALES_VOLUMES.map((id) => (
          <option key={id} value={id}>
            {SALES_VOLUME_LABELS[id]}
          </option>
        ))}
      </SelectField>
      <MessageField
        label="Message"
        value={message}
        maxLength={MAX_SUPPORT_MESSAGE_LENGTH}
        onValueChange={setMessage}
        minHeightClass="min-h-32"
      />
      <FormSubmit error={error} sending={state.kind === 'sending'} label="Send to sales" />
    </form>
  );
}
