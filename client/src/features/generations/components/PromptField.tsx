import { MAX_PROMPT_LENGTH } from '@mediagen/shared';
import { useId, type ReactNode } from 'react';

interface PromptFieldProps {
  label: string;
  value: string;
  placeholder: string;
  disabled?: boolean;
  maxLength?: number;
  /** The id of what explains the prompt as it is typed (how it will be read). */
  describedBy?: string;
  /** Shown under the field, within it: the panel's spacing is kept when it shows nothing. */
  footer?: ReactNode;
  onChange: (value: string) => void;
}

export function PromptField({
  label,
  value,
  placeholder,
  disabled = false,
  maxLength = MAX_PROMPT_LENGTH,
  describedBy,
  footer,
  onChange,
}: PromptFieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        id={id}
        rows={4}
        className="field resize-none"
        value={value}
        placeholder={placeholder}
        disabled={disabled}
        maxLength={maxLength}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
      {footer}
    </div>
  );
}
