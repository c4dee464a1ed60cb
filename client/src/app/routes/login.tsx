import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { LoginForm } from '@/features/auth/components/LoginForm';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

export function LoginPage() {
  const [params, setParams] = useSearchParams();
  // SIGN_UP_PATH (features/auth/auth-paths.ts) opens on the sign-up form.
  const signingUp = params.get('mode') === 'sign-up';
  useDocumentTitle(signingUp ? 'Create Account' : 'Login');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const navigate = useNavigate();

  useEffect(() => {
    loadFirebaseAuth().catch(() => undefined);
  }, []);

  if (isAuthenticated) return <Navigate to="/dashboard" replace />;

  const switchTo = (mode: 'sign-in' | 'sign-up') => setParams(mode === 'sign-up' ? { mode } : {}, { replace: true });

  return (
    <div className="flex justify-center px-4 py-14 sm:py-20">
      <div className="card w-full max-w-md p-8">
        <h1 className="text-center text-3xl font-bold text-slate-900 dark:text-white">
          {signingUp ? 'Create your account' : 'Welcome Back'}
        </h1>
        <p className="mt-2 mb-8 text-center text-slate-600 dark:text-slate-400">
          {signingUp ? 'Start turning prompts into images, videos and speech.' : 'Sign in to keep creating.'}
        </p>
        {/* A new key gives each form its own empty fields. */}
        <LoginForm
          key={signingUp ? 'sign-up' : 'sign-in'}
          mode={signingUp ? 'sign-up' : 'sign-in'}
          onSignedIn={() => void navigate('/dashboard')}
        />
        <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">
          {signingUp ? 'Already have an account?' : "Don't have an account?"}{' '}
          <button
            type="button"
            className="font-semibold text-violet-700 underline-offset-4 hover:underline dark:text-violet-300"
            onClick={() => switchTo(signingUp ? 'sign-in' : 'sign-up')}
          >
            {signingUp ? 'Sign in instead' : 'Create account'}
          </button>
        </p>
      </div>
    </div>
  );
}
