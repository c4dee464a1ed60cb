import { describe, expect, it } from 'vitest';
import { useThemeStore } from './theme-store';

describe('theme store', () => {
  it('persists isDark under theme-storage (spec §3)', () => {
    useThemeStore.setState({ isDark: false });
    useThemeStore.getState().toggleTheme();
    const stored = JSON.parse(localStorage.getItem('theme-storage') ?? 'null') as { state: unknown };
    expect(stored.state).toEqual({ isDark: true });
  });

  it('toggles back and forth', () => {
    useThemeStore.setState({ isDark: true });
    useThemeStore.getState().toggleTheme();
    expect(useThemeStore.getState().isDark).toBe(false);
  });
});
