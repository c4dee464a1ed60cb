import { ADVANCED_TECHNIQUES, KEYWORD_GROUPS, PROMPT_FORMULAS } from '@/features/marketing/content/guide';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

export function GuidePage() {
  useDocumentTitle('Prompt Guide');
  return (
    <div className="mx-auto grid max-w-6xl gap-16 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Guide" title="Prompt Guide">
        <p>Better prompts, better results. Use these formulas and techniques to get exactly what you imagine.</p>
      </PageHeader>

      <section aria-labelledby="formulas-title" className="grid gap-6">
        <h2 id="formulas-title" className="text-2xl font-bold text-slate-900 dark:text-white">
          Prompt formulas
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          {PROMPT_FORMULAS.map((formula) => (
            <article key={formula.id} className="card p-6">
              <h3 className="font-semibold text-slate-900 dark:text-white">{formula.title}</h3>
              <p className="mt-3 rounded-xl bg-violet-50 px-4 py-3 font-mono text-sm text-violet-800 dark:bg-violet-500/10 dark:text-violet-200">
                {formula.formula}
              </p>
              <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
                <span className="font-medium text-slate-700 dark:text-slate-300">Example: </span>
                {formula.example}
              </p>
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="techniques-title" className="grid gap-6">
        <h2 id="techniques-title" className="text-2xl font-bold text-slate-900 dark:text-white">
          Advanced techniques
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          {ADVANCED_TECHNIQUES.map((technique) => (
            <article key={technique.title} className="card p-6">
              <h3 className="font-semibold text-slate-900 dark:text-white">{technique.title}</h3>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{technique.text}</p>
              <code className="mt-3 block rounded-xl bg-slate-100 px-4 py-3 text-sm break-words text-slate-800 dark:bg-slate-800 dark:text-slate-200">
                {technique.example}
              </code>
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="keywords-title" className="grid gap-6">
        <h2 id="keywords-title" className="text-2xl font-bold text-slate-900 dark:text-white">
          Optimization keywords
        </h2>
        <div className="grid gap-6 md:grid-cols-3">
          {KEYWORD_GROUPS.map((group) => (
            <article key={group.title} className="card p-6">
              <h3 className="font-semibold text-slate-900 dark:text-white">{group.title}</h3>
              <ul className="mt-4 flex flex-wrap gap-2">
                {group.keywords.map((keyword) => (
                  <li
                    key={keyword}
                    className="rounded-full border border-slate-200 px-3 py-1 text-sm text-slate-700 dark:border-slate-700 dark:text-slate-300"
                  >
                    {keyword}
                  </li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </section>
    </div>
  );
}
