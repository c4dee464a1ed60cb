interface FormSubmitProps {
  /** What went wrong with the last try, said above the button; null when nothing did. */
  error: string | null;
  sending: boolean;
  label: string;
}

/** A form's failure, if any, and its submit button, which reads 'Sending...' while the form is sent. */
export function FormSubmit({ error, sending, label }: FormSubmitProps) {
  return (
    <>
      {error !== null && (
        <p role="alert" className="text-sm text-rose-700 dark:text-rose-300">
          {error}
        </p>
      )}
      <button type="submit" className="btn-primary w-full sm:w-auto sm:justify-self-start" disabled={sending}>
        {sending ? 'Sending...' : label}
      </button>
    </>
  );
}
