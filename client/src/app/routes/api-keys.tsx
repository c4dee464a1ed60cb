import { Link } from 'react-router-dom';
import { SignInToManage } from '@/components/ui/SignInToManage';
import { ApiKeysPanel } from '@/features/api-keys/components/ApiKeysPanel';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';
import { PageHeader } from './PageHeader';

/** /api-keys: the account's personal API keys (from the account menu). */
export function ApiKeysPage() {
  useDocumentTitle('API keys');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  return (
    <div className="mx-auto grid max-w-3xl gap-10 px-4 py-14 sm:px-6 sm:py-20">
      <PageHeader eyebrow="Developers" title="API keys">
        <p>
          A key lets your own programs call the API as you: same plan, tokens and limits. Send it as{' '}
          <code className="font-mono text-base break-all">Authorization: Bearer mgk_…</code>. To be told when a
          generation ends, add{' '}
          <Link to="/webhooks" className="font-semibold text-violet-700 hover:underline dark:text-violet-300">
            webhooks
          </Link>
          .
        </p>
      </PageHeader>
      {signedIn ? <ApiKeysPanel /> : <SignInToManage what="your API keys" />}
    </div>
  );
}
