import { useEffect } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { LoginForm } from '@/features/auth/components/LoginForm';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

export function LoginPage() {
  useDocumentTitle('Login');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const navigate = useNavigate();

  useEffect(() => {
    loadFirebaseAuth().catch(() => undefined);
  }, []);

  if (isAuthenticated) return <Navigate to="/dashboard" replace />;

  return (
    <div className="flex justify-center px-4 py-14 sm:py-20">
      <div className="card w-full max-w-md p-8">
        <h1 className="text-center text-3xl font-bold text-slate-900 dark:text-white">Welcome Back</h1>
        <p className="mt-2 mb-8 text-center text-slate-600 dark:text-slate-400">Sign in to keep creating.</p>
        <LoginForm onSignedIn={() => void navigate('/dashboard')} />
      </div>
    </div>
  );
}
