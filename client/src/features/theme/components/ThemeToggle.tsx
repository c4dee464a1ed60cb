import { MoonIcon, SunIcon } from '@/components/ui/icons';
import { useThemeStore } from '@/stores/theme-store';

export function ThemeToggle() {
  const isDark = useThemeStore((state) => state.isDark);
  const toggleTheme = useThemeStore((state) => state.toggleTheme);
  const label = isDark ? 'Switch to Light Mode' : 'Switch to Dark Mode';
  return (
    <button type="button" className="btn-icon" title={label} aria-label={label} onClick={toggleTheme}>
      {isDark ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
