import { PricingPlans } from '@/features/pricing/components/PricingPlans';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

export function PricingPage() {
  useDocumentTitle('Pricing');
  return (
    <div className="mx-auto grid max-w-7xl gap-14 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Pricing" title="Simple, transparent pricing">
        <p>Start free, upgrade when you need more. Yearly billing saves up to 20%.</p>
      </PageHeader>
      <PricingPlans />
      <section aria-labelledby="watermark-title" className="card mx-auto max-w-3xl p-7 text-center">
        <h2 id="watermark-title" className="text-lg font-semibold text-slate-900 dark:text-white">
          About watermarks
        </h2>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Everything made on the Free plan carries a MediaGen watermark that cannot be removed. Pro and Enterprise
          output has no watermark, and it is removed instantly when you upgrade.
        </p>
      </section>
    </div>
  );
}
