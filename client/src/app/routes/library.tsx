import { useCallback, useState } from 'react';
import { Link } from 'react-router-dom';
import { useGenerationSync } from '@/features/generations/hooks/use-generation-sync';
import type { LibraryFilters } from '@/features/generations/library/api/library-api';
import { LibraryFilterBar } from '@/features/generations/library/components/LibraryFilterBar';
import { LibraryGrid } from '@/features/generations/library/components/LibraryGrid';
import { useLibrary } from '@/features/generations/library/hooks/use-library';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

const NO_FILTERS: LibraryFilters = {};

export function LibraryPage() {
  useDocumentTitle('Your Library');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [filters, setFilters] = useState<LibraryFilters>(NO_FILTERS);
  const [clearedTimes, setClearedTimes] = useState(0);
  useGenerationSync(signedIn);
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
          {/* A new key after "Clear filters" starts the search box empty again. */}
          <LibraryFilterBar key={clearedTimes} filters={filters} onChange={setFilters} />
          <LibraryGrid library={library} filtered={filtered} onClearFilters={clearFilters} />
        </>
      ) : (
        <div className="card grid justify-items-center gap-3 p-10 text-center">
          <p className="text-slate-700 dark:text-slate-200">Sign in to see what you have made.</p>
          <Link to="/login" className="btn-primary">
            Sign In
          </Link>
        </div>
      )}
    </div>
  );
}
