import type { GenerationKind } from '@mediagen/shared';

/** Why the generate button is disabled once a kind's tokens are spent, and when they come back. */
export function OutOfTokensHint({ id, kind, resetsAt }: { id: string; kind: GenerationKind; resetsAt: string }) {
  const date = new Date(resetsAt).toLocaleDateString(undefined, { day: 'numeric', month: 'long' });
  return (
    <p id={id} className="text-center text-sm text-slate-600 dark:text-slate-300">
      No {kind} tokens left. They renew on {date}.
    </p>
  );
}
