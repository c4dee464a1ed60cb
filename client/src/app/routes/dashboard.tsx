import type { GenerationKind } from '@mediagen/shared';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useMe } from '@/features/account/api/get-me';
import { TokenBalance } from '@/features/account/components/TokenBalance';
import { DashboardBackground } from '@/features/dashboard/components/DashboardBackground';
import { DashboardFooter } from '@/features/dashboard/components/DashboardFooter';
import { ImagePanel } from '@/features/generations/components/ImagePanel';
import { SpeechPanel } from '@/features/generations/components/SpeechPanel';
import { VideoPanel } from '@/features/generations/components/VideoPanel';
import { LiveUpdatesNotice } from '@/features/generations/components/LiveUpdatesNotice';
import { useGenerationSync } from '@/features/generations/hooks/use-generation-sync';
import { LibraryStrip } from '@/features/generations/library/components/LibraryStrip';
import { loadFirebaseAuth } from '@/lib/auth-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

// Only a creator whose payment failed sees it: its code and its billing request come after the page paints.
const PastDueBanner = lazy(async () => ({
  default: (await import('@/features/billing/components/PastDueBanner')).PastDueBanner,
}));
const AuthModal = lazy(async () => ({ default: (await import('@/features/auth/components/AuthModal')).AuthModal }));

export function DashboardPage() {
  useDocumentTitle('Creator Dashboard');
  const signedIn = useAuthStore((state) => state.isAuthenticated);
  const [signInOpen, setSignInOpen] = useState(false);
  // What the click that opened the sign-in dialog asked for, done once the creator signs in there.
  const afterSignIn = useRef<(() => void) | undefined>(undefined);
  const { me, refresh, applyUpdate } = useMe(signedIn);
  useGenerationSync(signedIn, { onAccountUpdate: applyUpdate, onReconnect: () => void refresh() });

  useEffect(() => {
    // A signed-in creator's first generation needs a fresh token: Firebase loads now rather than when the
    // browser is next idle. A visitor downloads it only on opening the sign-in form.
    if (!signedIn) return;
    loadFirebaseAuth().catch((error: unknown) => console.error('Could not load sign-in', error));
  }, [signedIn]);

  const panelProps = {
    signedIn,
    onRequireSignIn: (then?: () => void) => {
      afterSignIn.current = then;
      setSignInOpen(true);
    },
    onBalanceChange: () => void refresh(),
    plan: me?.plan,
  };
  const balanceOf = (kind: GenerationKind) =>
    me === null ? undefined : { left: me.tokens[kind], resetsAt: me.resetsAt, plan: me.plan };

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
      {signedIn && (
        <Suspense fallback={null}>
          <PastDueBanner />
        </Suspense>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <ImagePanel {...panelProps} balance={balanceOf('image')} />
        <VideoPanel {...panelProps} balance={balanceOf('video')} />
        <SpeechPanel {...panelProps} balance={balanceOf('speech')} />
      </div>
      {signedIn && <LibraryStrip />}
      {signedIn && <LiveUpdatesNotice />}
      <DashboardFooter />
      {signInOpen && (
        <Suspense fallback={null}>
          <AuthModal
            variant="sign-in-to-continue"
            onClose={() => {
              afterSignIn.current = undefined;
              setSignInOpen(false);
            }}
            onSignedIn={() => {
              setSignInOpen(false);
              afterSignIn.current?.();
              afterSignIn.current = undefined;
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
