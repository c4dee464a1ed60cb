import type { PlanId } from '@mediagen/shared';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import type { Library } from '../hooks/use-library';
import { LibraryItem } from './LibraryItem';

interface LibraryGridProps {
  library: Library;
  filtered: boolean;
  onClearFilters: () => void;
  /** The owner's plan, for the note on marked results; absent until known. */
  plan?: PlanId | undefined;
}

/** The items, loading more as the end comes into view (and with a button, for keyboards), or a state. */
export function LibraryGrid({ library, filtered, onClearFilters, plan }: LibraryGridProps) {
  const { items, loading, loadingMore, error, hasMore, loadMore, retry } = library;
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const target = sentinel.current;
    if (target === null || !hasMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: '400px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, loadMore]);

  if (loading) {
    return <Spinner label="Loading your library…" />;
  }
  if (items.length === 0 && error === null) {
    return (
      <div className="card grid justify-items-center gap-3 p-10 text-center">
        {filtered ? (
          <>
            <p className="font-semibold text-slate-800 dark:text-slate-100">Nothing matches these filters.</p>
            <button type="button" className="btn-secondary" onClick={onClearFilters}>
              Clear filters
            </button>
          </>
        ) : (
          <>
            <p className="font-semibold text-slate-800 dark:text-slate-100">Nothing here yet.</p>
            <p className="text-slate-600 dark:text-slate-300">What you generate is kept here, newest first.</p>
            <Link to="/dashboard" className="btn-primary">
              Create something
            </Link>
          </>
        )}
      </div>
    );
  }
  return (
    <div className="grid gap-6">
      <ul aria-label="Your generations" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {items.map((generation) => (
          <LibraryItem key={generation.id} generation={generation} plan={plan} />
        ))}
      </ul>
      {error !== null && (
        <div
          role="alert"
          className="card flex flex-wrap items-center justify-center gap-3 p-4 text-rose-700 dark:text-rose-300"
        >
          {error}
          <button type="button" className="btn-secondary px-3 py-1.5 text-sm" onClick={retry}>
            Try again
          </button>
        </div>
      )}
      <div ref={sentinel} className="flex justify-center">
        {hasMore && error === null && (
          <button type="button" className="btn-secondary" onClick={loadMore} disabled={loadingMore}>
            {loadingMore ? 'Loading…' : 'Load more'}
          </button>
        )}
      </div>
    </div>
  );
}
