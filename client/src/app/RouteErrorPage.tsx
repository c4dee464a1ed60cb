import { useEffect } from 'react';
import type { FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/features/theme/components/ThemeToggle';
import { useThemeClass } from '@/features/theme/hooks/use-theme-class';
import { useDocumentTitle } from '@/lib/use-document-title';

/**
 * What a page that throws shows instead (spec §8 keeps its title 'Unexpected Application Error!'). The
 * error's own text means nothing to a creator, and the likeliest cause is a page from a build that has
 * since been replaced, so the page offers a reload; developers find the error in the console.
 */
export function RouteErrorPage({ error }: FallbackProps) {
  useThemeClass();
  useDocumentTitle('Unexpected Application Error!');
  useEffect(() => {
    console.error('A page failed to render', error);
  }, [error]);

  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex justify-end p-4">
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center p-6">
        <div className="card w-full max-w-lg p-8 text-center">
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Something went wrong.</h1>
          <p className="mt-3 text-slate-600 dark:text-slate-300">Reload to get the latest version.</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <button type="button" className="btn-primary" onClick={() => window.location.reload()}>
              Reload
            </button>
            <Link to="/" className="btn-secondary">
              Go home
            </Link>
          </div>
        </div>
      </main>
    </div>
  );
}
