import { useEffect } from 'react';
import { useThemeStore } from '@/stores/theme-store';

/** Mirrors the persisted theme onto <html>, where Tailwind's dark variant looks for it. */
export function useThemeClass(): void {
  const isDark = useThemeStore((state) => state.isDark);
  useEffect(() => {
    document.documentElement.classList.toggle('dark', isDark);
  }, [isDark]);
}
