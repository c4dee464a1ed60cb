import { TOAST_DURATION_MS } from '@mediagen/shared';
import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { Toaster } from 'sonner';
import { useThemeStore } from '@/stores/theme-store';
import { createAppRouter } from './router';

export function App() {
  const [router] = useState(createAppRouter);
  const isDark = useThemeStore((state) => state.isDark);
  return (
    <>
      <RouterProvider router={router} />
      <Toaster position="top-right" duration={TOAST_DURATION_MS} theme={isDark ? 'dark' : 'light'} richColors closeButton />
    </>
  );
}
