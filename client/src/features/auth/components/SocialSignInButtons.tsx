import { GitHubIcon, GoogleIcon } from '@/components/ui/icons';
import type { SocialProvider } from '../api/auth-actions';

interface SocialSignInButtonsProps {
  pendingProvider: SocialProvider | null;
  disabled: boolean;
  onSelect: (provider: SocialProvider) => void;
}

export function SocialSignInButtons({ pendingProvider, disabled, onSelect }: SocialSignInButtonsProps) {
  const busy = disabled || pendingProvider !== null;
  return (
    <div className="grid gap-3">
      <button type="button" className="btn-secondary w-full" disabled={busy} onClick={() => onSelect('Google')}>
        <GoogleIcon />
        Continue with Google
      </button>
      <button type="button" className="btn-secondary w-full" disabled={busy} onClick={() => onSelect('GitHub')}>
        <GitHubIcon />
        Continue with GitHub
      </button>
    </div>
  );
}

export function OrDivider() {
  return (
    <div className="my-5 flex items-center gap-3 text-xs font-medium tracking-wide text-slate-400 uppercase">
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
      or
      <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
