import { useSearchParams } from 'react-router-dom';
import { SupportForm, isSupportTopic } from '@/features/support/components/SupportForm';
import { useDocumentTitle } from '@/lib/use-document-title';
import { PageHeader } from './PageHeader';

/** /support: where every support promise on the site leads (`?topic=report-misuse` picks the topic). */
export function SupportPage() {
  useDocumentTitle('Support');
  const topic = useSearchParams()[0].get('topic');
  return (
    <div className="mx-auto grid max-w-2xl gap-10 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Support" title="Contact support">
        <p>
          Questions about your account, a plan or a generation, or misuse to report: write to us and we reply by email.
        </p>
      </PageHeader>
      <SupportForm initialTopic={isSupportTopic(topic) ? topic : 'other'} />
    </div>
  );
}
