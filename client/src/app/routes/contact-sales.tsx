import { PLAN_TITLES } from '@mediagen/shared';
import { ContactSalesForm } from '@/features/sales/components/ContactSalesForm';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

/** /contact-sales: Enterprise's "Contact Sales", for a custom integration, API access or volume beyond the plans. */
export function ContactSalesPage() {
  useDocumentTitle('Contact Sales');
  return (
    <div className="mx-auto grid max-w-2xl gap-10 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow={PLAN_TITLES.enterprise} title="Contact sales">
        <p>
          Tell us about your company and the volume you expect, and we reply by email with an {PLAN_TITLES.enterprise}{' '}
          plan that fits.
        </p>
      </PageHeader>
      <ContactSalesForm />
    </div>
  );
}
