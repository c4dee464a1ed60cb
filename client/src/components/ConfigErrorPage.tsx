/**
 * Shown instead of the app when the identity configuration is incomplete (spec §5), so a bad deploy
 * says exactly what to fix rather than showing a blank page.
 */
export function ConfigErrorPage({ problems }: { problems: readonly string[] }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-6">
      <section
        role="alert"
        aria-labelledby="config-error-title"
        className="w-full max-w-xl rounded-3xl border border-rose-200 bg-white p-8 shadow-xl dark:border-rose-900/60 dark:bg-slate-900"
      >
        <p className="text-sm font-semibold tracking-wide text-rose-600 uppercase dark:text-rose-400">
          Configuration error
        </p>
        <h1 id="config-error-title" className="mt-2 text-2xl font-bold text-slate-900 dark:text-white">
          The app cannot start
        </h1>
        <p className="mt-3 text-slate-600 dark:text-slate-300">
          Its sign-in configuration is incomplete. Set these environment variables (for example in
          <code className="mx-1 rounded bg-slate-100 px-1.5 py-0.5 text-sm dark:bg-slate-800">client/.env</code>) and
          rebuild:
        </p>
        <ul className="mt-5 grid gap-2">
          {problems.map((problem) => (
            <li
              key={problem}
              className="rounded-xl bg-rose-50 px-4 py-3 font-mono text-sm text-rose-800 dark:bg-rose-950/40 dark:text-rose-200"
            >
              {problem}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
