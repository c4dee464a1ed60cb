import { useId, useState, type ReactNode } from 'react';

interface OneTimeSecretProps {
  title: ReactNode;
  /** What the secret is, read out with its field ("API key", "Signing secret"). */
  label: string;
  secret: string;
  /** Why it is shown only now, said under the title. */
  warning: string;
  onDone: () => void;
}

/** The one time a secret is shown (an API key, a webhook's signing secret): copy it now, with a button. */
export function OneTimeSecret({ title, label, secret, warning, onDone }: OneTimeSecretProps) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const headingId = useId();

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  }

  return (
    <section aria-labelledby={headingId} className="card grid gap-3 border-emerald-300 p-6 dark:border-emerald-500/40">
      <h2 id={headingId} className="text-lg font-semibold break-all text-slate-900 dark:text-white">
        {title}
      </h2>
      <p className="text-sm font-medium text-amber-800 dark:text-amber-300">{warning}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          readOnly
          aria-label={label}
          className="field font-mono text-sm"
          value={secret}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="btn-secondary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        {copied === 'yes' && 'Copied to the clipboard.'}
        {copied === 'failed' && `Could not copy: select the ${label.toLowerCase()} and copy it yourself.`}
      </p>
      <button type="button" className="btn-primary justify-self-start" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
