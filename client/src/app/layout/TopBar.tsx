import { lazy, Suspense } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { GridIcon, LogoutIcon } from '@/components/ui/icons';
import { Logo } from '@/components/ui/Logo';
import { AccountMenu } from '@/features/account/components/AccountMenu';
import { SIGN_UP_PATH } from '@/features/auth/auth-paths';
import { useLogout } from '@/features/auth/hooks/use-logout';
import { ThemeToggle } from '@/features/theme/components/ThemeToggle';
import { useAuthStore } from '@/stores/auth-store';
import { navItemsFor } from './nav-items';

// Every page has the top bar: the billing entries load when the account menu first opens.
const BillingMenuItems = lazy(async () => ({
  default: (await import('@/features/billing/components/BillingMenuItems')).BillingMenuItems,
}));

/** After the account is closed on the server, this browser's Firebase session goes too (loaded on demand). */
async function signOutHere(): Promise<void> {
  const { signOutEverywhere } = await import('@/features/auth/api/auth-actions');
  await signOutEverywhere();
}

export function TopBar() {
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const { pathname } = useLocation();
  const logout = useLogout();

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/75 backdrop-blur-lg dark:border-slate-800/70 dark:bg-slate-950/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6">
        {/* Spec §2: the logo shows on the home page only. */}
        <div className="min-w-0 flex-1 md:flex-none">{pathname === '/' && <Logo />}</div>
        <nav aria-label="Main" className="hidden flex-1 justify-center md:flex">
          <ul className="flex items-center gap-1">
            {navItemsFor(isAuthenticated).map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end
                  className={({ isActive }) =>
                    `rounded-lg px-2 py-2 text-sm font-medium whitespace-nowrap transition lg:px-3 ${
                      isActive
                        ? 'bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300'
                        : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          {isAuthenticated ? (
            <>
              {/* Where space is short (a phone, or beside the page links on a tablet) the words stay and the
                  icons go: a label is what tells a new user what it does. */}
              <Link to="/dashboard" className="btn-primary px-3 py-2 text-sm sm:max-md:px-4 lg:px-4">
                <GridIcon className="hidden size-4 sm:max-md:block lg:block" />
                Dashboard
              </Link>
              <button
                type="button"
                className="btn-secondary px-3 py-2 text-sm sm:max-md:px-4 lg:px-4"
                onClick={() => void logout()}
              >
                <LogoutIcon className="hidden size-4 sm:max-md:block lg:block" />
                Logout
              </button>
              <AccountMenu
                onAccountClosed={signOutHere}
                billingItems={(closeMenu) => (
                  <Suspense fallback={null}>
                    <BillingMenuItems onNavigate={closeMenu} />
                  </Suspense>
                )}
              />
            </>
          ) : (
            pathname !== '/login' && (
              <>
                <Link to="/login" className="btn-secondary px-3 py-2 text-sm sm:px-4">
                  Sign In
                </Link>
                <Link to={SIGN_UP_PATH} className="btn-primary px-3 py-2 text-sm sm:px-4">
                  Sign Up
                </Link>
              </>
            )
          )}
          <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
