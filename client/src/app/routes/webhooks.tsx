import { Link } from 'react-router-dom';
import { SignInToManage } from '@/components/ui/SignInToManage';
import { WebhooksPanel } from '@/features/webhooks/components/WebhooksPanel';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';
import { PageHeader } from './PageHeader';

const VERIFY_EXAMPLE = `import { Webhook } from 'standardwebhooks';
// body: the raw request body as text; headers: the request's headers
const event = new Webhook(secret).verify(body, headers);`;

/** /webhooks: the account's webhook endpoints (from the account menu), and how a receiver checks a delivery. */
export function WebhooksPage() {
  useDocumentTitle('Webhooks');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  return (
    <div className="mx-auto grid max-w-3xl gap-10 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Developers" title="Webhooks">
        <p>
          We send a signed <code className="font-mono text-base">POST</code> to your endpoints when a generation
          completes, fails or is canceled, so your programs need not poll. To call the API itself, create{' '}
          <Link to="/api-keys" className="font-semibold text-violet-700 hover:underline dark:text-violet-300">
            API keys
          </Link>
          .
        </p>
      </PageHeader>
      {signedIn ? <WebhooksPanel /> : <SignInToManage what="your webhook endpoints" />}
      <section aria-labelledby="webhooks-verify" className="card grid min-w-0 gap-3 p-6">
        <h2 id="webhooks-verify" className="text-lg font-semibold text-slate-900 dark:text-white">
          Checking a delivery
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Deliveries follow the Standard Webhooks specification: the body is{' '}
          <code className="font-mono">{'{ type, timestamp, data }'}</code>, <code className="font-mono">data</code>{' '}
          being the generation as the API returns it (with its <code className="font-mono">version</code>). Verify the{' '}
          <code className="font-mono">webhook-signature</code> header with your endpoint’s secret, and handle each{' '}
          <code className="font-mono">webhook-id</code> once: a retry carries the same one. A delivery is retried for
          about a day until your endpoint answers 2xx within 10 seconds; an answer of 410 Gone, or failing too long,
          disables the endpoint.
        </p>
        <pre className="overflow-x-auto rounded-xl bg-slate-900 p-4 text-xs text-slate-100 dark:bg-slate-950">
          <code>{VERIFY_EXAMPLE}</code>
        </pre>
      </section>
    </div>
  );
}
