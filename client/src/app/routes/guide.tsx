import type { ReactNode } from 'react';
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

      <GuideSection id="formulas" title="Prompt formulas">
        {PROMPT_FORMULAS.map((formula) => (
          <GuideCard key={formula.id} title={formula.title}>
            <p className="mt-3 rounded-xl bg-violet-50 px-4 py-3 font-mono text-sm text-violet-800 dark:bg-violet-500/10 dark:text-violet-200">
              {formula.formula}
            </p>
            <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
              <span className="font-medium text-slate-700 dark:text-slate-300">Example: </span>
              {formula.example}
            </p>
          </GuideCard>
        ))}
      </GuideSection>

      <GuideSection id="techniques" title="Advanced techniques">
        {ADVANCED_TECHNIQUES.map((technique) => (
          <GuideCard key={technique.title} title={technique.title}>
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{technique.text}</p>
            <code className="mt-3 block rounded-xl bg-slate-100 px-4 py-3 text-sm break-words text-slate-800 dark:bg-slate-800 dark:text-slate-200">
              {technique.example}
            </code>
          </GuideCard>
        ))}
      </GuideSection>

      <GuideSection id="keywords" title="Optimization keywords" wide>
        {KEYWORD_GROUPS.map((group) => (
          <GuideCard key={group.title} title={group.title}>
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
          </GuideCard>
        ))}
      </GuideSection>
    </div>
  );
}

/** A titled part of the guide: its cards in two columns, or three when `wide`. */
function GuideSection({
  id,
  title,
  wide,
  children,
}: {
  id: string;
  title: string;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-6">
      <h2 id={`${id}-title`} className="text-2xl font-bold text-slate-900 dark:text-white">
        {title}
      </h2>
      <div className={wide ? 'grid gap-6 md:grid-cols-3' : 'grid gap-6 md:grid-cols-2'}>{children}</div>
    </section>
  );
}

function GuideCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <article className="card p-6">
      <h3 className="font-semibold text-slate-900 dark:text-white">{title}</h3>
      {children}
    </article>
  );
}
