interface GenerateButtonProps {
  signedIn: boolean;
  busy: boolean;
  blank: boolean;
  /** The id of a text that says more about what a click will do (no tokens left). */
  describedBy?: string | undefined;
  idleLabel: string;
  busyLabel?: string;
  signedOutLabel?: string;
  onGenerate: () => void;
}

/**
 * Spec §2: generate is disabled when busy or blank; a signed-out user who tries it gets the sign-in
 * dialog, so signed out it looks and works like any button (it is the way in), with the spec's label.
 */
export function GenerateButton({
  signedIn,
  busy,
  blank,
  describedBy,
  idleLabel,
  busyLabel = idleLabel,
  signedOutLabel = idleLabel,
  onGenerate,
}: GenerateButtonProps) {
  const label = !signedIn ? signedOutLabel : busy ? busyLabel : idleLabel;
  return (
    <button
      type="button"
      className="btn-primary w-full"
      disabled={signedIn && (busy || blank)}
      aria-busy={busy || undefined}
      aria-describedby={describedBy}
      onClick={onGenerate}
    >
      {busy && signedIn && (
        <span
          className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent"
          aria-hidden="true"
        />
      )}
      {label}
    </button>
  );
}
