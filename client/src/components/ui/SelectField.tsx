import { useId, type ReactNode } from 'react';

interface SelectFieldProps<T extends string> {
  label: string;
  value: T;
  disabled?: boolean;
  /** A line under the field, read out with it. */
  hint?: string | undefined;
  onChange: (value: T) => void;
  /** The <option>s. */
  children: ReactNode;
}

/** A labelled <select> in the form's style, with an optional hint it is described by. */
export function SelectField<T extends string>({
  label,
  value,
  disabled,
  hint,
  onChange,
  children,
}: SelectFieldProps<T>) {
  const id = useId();
  const hintId = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="field"
        disabled={disabled}
        aria-describedby={hint === undefined ? undefined : hintId}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {children}
      </select>
      {hint !== undefined && (
        <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
    </div>
  );
}
