import { ErrorBoundary } from 'react-error-boundary';
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { RootLayout } from './layout/RootLayout';
import { lazyPage, type LazyPage } from './lazy-page';
import { RouteErrorPage } from './RouteErrorPage';
import { LandingPage } from './routes/landing';

/**
 * Every page but the landing one is its own chunk, so the first visit downloads only what it shows. A page
 * at `/name` is `routes/name.tsx`: the build then preloads it for a visit that opens there
 * (client/vite/preload-page-chunks.ts), and `loadPageAt` has it ready for the first render.
 */
const lazyPages: Record<string, LazyPage> = {
  '/about': lazyPage(() => import('./routes/about'), 'AboutPage'),
  '/services': lazyPage(() => import('./routes/services'), 'ServicesPage'),
  '/pricing': lazyPage(() => import('./routes/pricing'), 'PricingPage'),
  '/guide': lazyPage(() => import('./routes/guide'), 'GuidePage'),
  '/dashboard': lazyPage(() => import('./routes/dashboard'), 'DashboardPage'),
  '/library': lazyPage(() => import('./routes/library'), 'LibraryPage'),
  '/login': lazyPage(() => import('./routes/login'), 'LoginPage'),
  '/auth/action': lazyPage(() => import('./routes/auth-action'), 'AuthActionPage'),
  '/payment': lazyPage(() => import('./routes/payment'), 'PaymentPage'),
  '/support': lazyPage(() => import('./routes/support'), 'SupportPage'),
  '/contact-sales': lazyPage(() => import('./routes/contact-sales'), 'ContactSalesPage'),
  '/api-keys': lazyPage(() => import('./routes/api-keys'), 'ApiKeysPage'),
  '/webhooks': lazyPage(() => import('./routes/webhooks'), 'WebhooksPage'),
  '*': lazyPage(() => import('./routes/not-found'), 'NotFoundPage'),
};

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      ...Object.entries(lazyPages).map(([path, Page]) => ({ path, element: <Page /> })),
    ],
  },
];

/**
 * Loads the code of the page at `pathname`, if it is a page of its own, so the first render shows it
 * rather than the spinner. Resolves when it is loaded or could not be (the page then loads as it renders).
 */
export async function loadPageAt(pathname: string): Promise<void> {
  const path = matchRoutes(appRoutes, pathname)?.at(-1)?.route.path;
  await (path === undefined ? undefined : lazyPages[path])?.load().catch(() => undefined);
}

/**
 * The pages, under whichever router the caller gives (BrowserRouter in the app, MemoryRouter in tests).
 * Declarative routing: nothing here loads data before rendering, and the data router would add ~17 KB
 * gzip to every first visit. A page that throws shows the error page until the next navigation.
 */
export function AppRoutes({ routes = appRoutes }: { routes?: RouteObject[] }) {
  const location = useLocation();
  return (
    <ErrorBoundary FallbackComponent={RouteErrorPage} resetKeys={[location.key]}>
      {useRoutes(routes)}
    </ErrorBoundary>
  );
}
