import { useId } from 'react';

interface MessageFieldProps {
  label: string;
  value: string;
  maxLength: number;
  onValueChange: (value: string) => void;
  /** Tailwind's min-height class: how much room the message starts with. */
  minHeightClass?: string;
}

/** A labelled, required <textarea> that counts its characters against its limit, read out with it. */
export function MessageField({
  label,
  value,
  maxLength,
  onValueChange,
  minHeightClass = 'min-h-40',
}: MessageFieldProps) {
  const id = useId();
  const countId = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        id={id}
        className={`field ${minHeightClass}`}
        required
        maxLength={maxLength}
        aria-describedby={countId}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
      />
      <p id={countId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        {value.length} / {maxLength} characters
      </p>
    </div>
  );
}
