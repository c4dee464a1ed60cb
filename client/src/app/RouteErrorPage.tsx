import type { FallbackProps } from 'react-error-boundary';
import { Link } from 'react-router-dom';
import { ThemeToggle } from '@/features/theme/components/ThemeToggle';
import { useThemeClass } from '@/features/theme/hooks/use-theme-class';
import { useDocumentTitle } from '@/lib/use-document-title';

/** What a page that throws shows instead (spec §8 keeps its title 'Unexpected Application Error!'). */
export function RouteErrorPage({ error }: FallbackProps) {
  useThemeClass();
  useDocumentTitle('Unexpected Application Error!');
  const detail = error instanceof Error ? error.message : 'Something went wrong while showing this page.';

  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex justify-end p-4">
        <ThemeToggle />
      </header>
      <main className="flex flex-1 items-center justify-center p-6">
        <div className="card w-full max-w-lg p-8 text-center">
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Unexpected Application Error!</h1>
          <p className="mt-3 break-words text-slate-600 dark:text-slate-300">{detail}</p>
          <div className="mt-6 flex justify-center gap-3">
            <button type="button" className="btn-secondary" onClick={() => window.location.reload()}>
              Reload
            </button>
            <Link to="/" className="btn-primary">
              Go home
            </Link>
          </div>
        </div>
      </main>
    </div>
  );
}
