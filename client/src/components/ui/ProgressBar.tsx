interface ProgressBarProps {
  label: string;
  value: number;
  /** What the value means in words, read by screen readers instead of the bare percentage. */
  valueText?: string;
}

export function ProgressBar({ label, value, valueText }: ProgressBarProps) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      aria-valuetext={valueText}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-500"
        style={{ width: `${value}%` }}
      />
    </div>
  );
}
