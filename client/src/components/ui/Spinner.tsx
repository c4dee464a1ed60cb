export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-3 py-24 text-slate-500 dark:text-slate-400">
      <span
        className="size-6 animate-spin rounded-full border-2 border-violet-500 border-t-transparent"
        aria-hidden="true"
      />
      <span>{label}</span>
    </div>
  );
}
