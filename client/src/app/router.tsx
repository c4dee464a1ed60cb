import { lazy, type ComponentType } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { RootLayout } from './layout/RootLayout';
import { RouteErrorPage } from './RouteErrorPage';
import { LandingPage } from './routes/landing';

/**
 * Every page but the landing one is its own chunk, so the first visit downloads only what it shows. A page
 * at `/name` is `routes/name.tsx`: the build then preloads it for a visit that opens there
 * (client/vite/preload-page-chunks.ts).
 */
function lazyPage<Name extends string>(load: () => Promise<Record<Name, ComponentType>>, name: Name) {
  return lazy(async () => ({ default: (await load())[name] }));
}

const AboutPage = lazyPage(() => import('./routes/about'), 'AboutPage');
const ServicesPage = lazyPage(() => import('./routes/services'), 'ServicesPage');
const PricingPage = lazyPage(() => import('./routes/pricing'), 'PricingPage');
const GuidePage = lazyPage(() => import('./routes/guide'), 'GuidePage');
const DashboardPage = lazyPage(() => import('./routes/dashboard'), 'DashboardPage');
const LibraryPage = lazyPage(() => import('./routes/library'), 'LibraryPage');
const AuthActionPage = lazyPage(() => import('./routes/auth-action'), 'AuthActionPage');
const LoginPage = lazyPage(() => import('./routes/login'), 'LoginPage');
const PaymentPage = lazyPage(() => import('./routes/payment'), 'PaymentPage');
const NotFoundPage = lazyPage(() => import('./routes/not-found'), 'NotFoundPage');

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/', element: <LandingPage /> },
      { path: '/about', element: <AboutPage /> },
      { path: '/services', element: <ServicesPage /> },
      { path: '/pricing', element: <PricingPage /> },
      { path: '/guide', element: <GuidePage /> },
      { path: '/dashboard', element: <DashboardPage /> },
      { path: '/library', element: <LibraryPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/auth/action', element: <AuthActionPage /> },
      { path: '/payment', element: <PaymentPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

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
