import { TOAST_DURATION_MS } from '@mediagen/shared';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from 'sonner';
import { useThemeStore } from '@/stores/theme-store';
import { createAppRouter } from './router';

/** Toasts start below the 4rem top bar: at Sonner's default offset a 5-second toast covers Logout and the theme toggle. */
const TOASTS_TOP = 76;

export function App() {
  const [router] = useState(createAppRouter);
  const isDark = useThemeStore((state) => state.isDark);
  return (
    <>
      <RouterProvider router={router} />
      <Toaster
        position="top-right"
        offset={{ top: TOASTS_TOP }}
        mobileOffset={{ top: TOASTS_TOP }}
        duration={TOAST_DURATION_MS}
        theme={isDark ? 'dark' : 'light'}
        richColors
        closeButton
      />
    </>
  );
}
