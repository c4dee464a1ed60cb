import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'onChange'> {
  label: ReactNode;
  onValueChange: (value: string) => void;
  /** Under the input, inside the field's block (a link such as "Forgot password?"). */
  children?: ReactNode;
  'data-autofocus'?: boolean;
}

/** A labelled text input in the house style; the label and the input are tied by a generated id. */
export function TextField({ label, onValueChange, children, className, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input id={id} className="field" onChange={(event) => onValueChange(event.target.value)} {...input} />
      {children}
    </div>
  );
}
