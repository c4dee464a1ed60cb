interface GenerateButtonProps {
  signedIn: boolean;
  busy: boolean;
  blank: boolean;
  idleLabel: string;
  busyLabel?: string;
  signedOutLabel?: string;
  onGenerate: () => void;
}

/**
 * Spec §2: generate is disabled when busy, signed out or blank, yet a signed-out user who tries it
 * gets the sign-in dialog. So signed out it is only marked disabled (aria-disabled) and still clickable.
 */
export function GenerateButton({
  signedIn,
  busy,
  blank,
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
      aria-disabled={!signedIn || undefined}
      aria-busy={busy || undefined}
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
