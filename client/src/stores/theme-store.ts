import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface ThemeState {
  isDark: boolean;
  toggleTheme: () => void;
}

function prefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Persisted as the spec names it (theme-storage); index.html reads the same key before first paint. */
export const useThemeStore = create<ThemeState>()(
  persist(
    (set) => ({
      isDark: prefersDark(),
      toggleTheme: () => set((state) => ({ isDark: !state.isDark })),
    }),
    { name: 'theme-storage', partialize: ({ isDark }) => ({ isDark }) },
  ),
);
