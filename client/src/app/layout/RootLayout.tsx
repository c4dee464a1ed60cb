import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { Spinner } from '@/components/ui/Spinner';
import { useWelcomeToast } from '@/features/account/hooks/use-welcome-toast';
import { useSessionRestore } from '@/features/auth/hooks/use-session-restore';
import { useThemeClass } from '@/features/theme/hooks/use-theme-class';
import { BottomBar } from './BottomBar';
import { TopBar } from './TopBar';
import { useScrollRestoration } from './use-scroll-restoration';

export function RootLayout() {
  useThemeClass();
  useSessionRestore();
  useWelcomeToast();
  useScrollRestoration();

  return (
    <>
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-violet-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <TopBar />
      <main id="main" tabIndex={-1} className="min-h-[calc(100vh-4rem)] pb-24 outline-none md:pb-0">
        <Suspense fallback={<Spinner label="Loading..." />}>
          <Outlet />
        </Suspense>
      </main>
      <BottomBar />
    </>
  );
}
