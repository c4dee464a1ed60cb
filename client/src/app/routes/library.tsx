import { lazy, Suspense, useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useMe } from '@/features/account/api/get-me';
import { SIGN_UP_PATH } from '@/features/auth/auth-paths';
import { useGenerationSync } from '@/features/generations/hooks/use-generation-sync';
import type { LibraryFilters } from '@/features/generations/library/api/library-api';
import { LiveUpdatesNotice } from '@/features/generations/components/LiveUpdatesNotice';
import { LibraryFilterBar } from '@/features/generations/library/components/LibraryFilterBar';
import { LibraryGrid } from '@/features/generations/library/components/LibraryGrid';
import { useLibrary } from '@/features/generations/library/hooks/use-library';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

// Only a creator whose payment failed sees it: its code and its billing request come after the page paints.
const PastDueBanner = lazy(async () => ({
  default: (await import('@/features/billing/components/PastDueBanner')).PastDueBanner,
}));

const NO_FILTERS: LibraryFilters = {};

export function LibraryPage() {
  useDocumentTitle('Your Library');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [filters, setFilters] = useState<LibraryFilters>(NO_FILTERS);
  const [clearedTimes, setClearedTimes] = useState(0);
  // Only the plan is read: it decides whether results are served with the mark, live as it changes.
  const { me, refresh, applyUpdate } = useMe(signedIn);
  useGenerationSync(signedIn, { onAccountUpdate: applyUpdate, onReconnect: () => void refresh() });
  const library = useLibrary(filters, signedIn);
  const clearFilters = useCallback(() => {
    setFilters(NO_FILTERS);
    setClearedTimes((times) => times + 1);
  }, []);
  const filtered = filters.kind !== undefined || filters.status !== undefined || filters.q !== undefined;

  return (
    <div className="mx-auto grid max-w-7xl gap-6 px-4 py-10 sm:px-6 sm:py-14">
      <header className="grid gap-2">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Your <span className="text-gradient">Library</span>
        </h1>
        <p className="text-slate-600 dark:text-slate-300">
          Everything you have generated, newest first. Items in progress update live.
        </p>
      </header>
      {signedIn ? (
        <>
          <Suspense fallback={null}>
            <PastDueBanner />
          </Suspense>
          {/* A new key after "Clear filters" starts the search box empty again. */}
          <LibraryFilterBar key={clearedTimes} filters={filters} onChange={setFilters} />
          <LibraryGrid library={library} filtered={filtered} onClearFilters={clearFilters} plan={me?.plan} />
          <LiveUpdatesNotice />
        </>
      ) : (
        <div className="card grid justify-items-center gap-3 p-10 text-center">
          <p className="text-slate-700 dark:text-slate-200">Sign in to see what you have made.</p>
          <div className="flex flex-wrap justify-center gap-3">
            <Link to="/login" className="btn-primary">
              Sign In
            </Link>
            <Link to={SIGN_UP_PATH} className="btn-secondary">
              Create account
            </Link>
          </div>
        </div>
      )}
    </div>
  );
}
