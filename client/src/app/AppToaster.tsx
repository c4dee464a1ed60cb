import { TOAST_DURATION_MS } from '@mediagen/shared';
import { Toaster } from 'sonner';
import { useThemeStore } from '@/stores/theme-store';

/** Toasts start below the 4rem top bar: at Sonner's default offset a 5-second toast covers Logout and the theme toggle. */
const TOASTS_TOP = 76;

/** The app's toaster; its own chunk, loaded after the first paint (see App). */
export function AppToaster() {
  const isDark = useThemeStore((state) => state.isDark);
  return (
    <Toaster
      position="top-right"
      offset={{ top: TOASTS_TOP }}
      mobileOffset={{ top: TOASTS_TOP }}
      duration={TOAST_DURATION_MS}
      theme={isDark ? 'dark' : 'light'}
      richColors
      closeButton
    />
  );
}
