import type { GenerationKind } from '@mediagen/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useMe } from '@/features/account/api/get-me';
import { TokenBalance } from '@/features/account/components/TokenBalance';
import { DashboardBackground } from '@/features/dashboard/components/DashboardBackground';
import { DashboardFooter } from '@/features/dashboard/components/DashboardFooter';
import { ImagePanel } from '@/features/generations/components/ImagePanel';
import { SpeechPanel } from '@/features/generations/components/SpeechPanel';
import { VideoPanel } from '@/features/generations/components/VideoPanel';
import { useGenerationSync } from '@/features/generations/hooks/use-generation-sync';
import { LibraryStrip } from '@/features/generations/library/components/LibraryStrip';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

const AuthModal = lazy(async () => ({ default: (await import('@/features/auth/components/AuthModal')).AuthModal }));

export function DashboardPage() {
  useDocumentTitle('Creator Dashboard');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [signInOpen, setSignInOpen] = useState(false);
  const { me, refresh } = useMe(signedIn);
  useGenerationSync(signedIn);

  useEffect(() => {
    // A signed-in creator's first generation needs a fresh token: Firebase loads now rather than when the
    // browser is next idle. A visitor downloads it only on opening the sign-in form.
    if (!signedIn) return;
    loadFirebaseAuth().catch((error: unknown) => console.error('Could not load sign-in', error));
  }, [signedIn]);

  const panelProps = {
    signedIn,
    onRequireSignIn: () => setSignInOpen(true),
    onBalanceChange: () => void refresh(),
    plan: me?.plan,
  };
  const balanceOf = (kind: GenerationKind) =>
    me === null ? undefined : { left: me.tokens[kind], resetsAt: me.resetsAt };

  return (
    <div className="relative isolate mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-14">
      <DashboardBackground />
      <header className="mb-10 grid justify-items-center gap-4 text-center">
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          Creator <span className="text-gradient">Dashboard</span>
        </h1>
        <p className="max-w-2xl text-slate-600 dark:text-slate-300">
          {signedIn
            ? 'Describe what you want and watch it come to life. Progress updates live.'
            : 'Sign in to generate images, videos and speech.'}
        </p>
        {me !== null && <TokenBalance me={me} />}
      </header>
      <div className="grid gap-6 lg:grid-cols-3">
        <ImagePanel {...panelProps} balance={balanceOf('image')} />
        <VideoPanel {...panelProps} balance={balanceOf('video')} />
        <SpeechPanel {...panelProps} balance={balanceOf('speech')} />
      </div>
      {signedIn && <LibraryStrip />}
      <DashboardFooter />
      {signInOpen && (
        <Suspense fallback={null}>
          <AuthModal
            variant="sign-in-only"
            onClose={() => setSignInOpen(false)}
            onSignedIn={() => setSignInOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
