import { Spinner } from './Spinner';

/** A list still loading (a spinner saying what) or that could not load (the reason, as an alert). */
export function ListNotReady({
  state,
  loadingLabel,
}: {
  state: { kind: 'loading' } | { kind: 'failed'; message: string };
  loadingLabel: string;
}) {
  if (state.kind === 'loading') return <Spinner label={loadingLabel} />;
  return (
    <p role="alert" className="card p-6 text-rose-700 dark:text-rose-300">
      {state.message}
    </p>
  );
}
