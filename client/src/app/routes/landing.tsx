import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ImageIcon, VideoIcon, WaveIcon } from '@/components/ui/icons';
import { hasSignedInHere } from '@/features/auth/returning-visitor';
import { HeroPortrait } from '@/features/marketing/components/HeroPortrait';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAuthStore } from '@/stores/auth-store';

// The modal (and through it the sign-in SDK) loads only when a visitor asks to start.
const AuthModal = lazy(async () => ({ default: (await import('@/features/auth/components/AuthModal')).AuthModal }));

const HIGHLIGHTS = [
  { icon: ImageIcon, title: 'Images', text: 'From a sentence to a striking picture.' },
  { icon: VideoIcon, title: 'Videos', text: 'Cinematic clips from a scene description.' },
  { icon: WaveIcon, title: 'Speech', text: 'Natural voices in 15 languages.' },
];

export function LandingPage() {
  useDocumentTitle('Home');
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const navigate = useNavigate();
  const [authOpen, setAuthOpen] = useState(false);

  function startCreating() {
    if (isAuthenticated) void navigate('/dashboard');
    else setAuthOpen(true);
  }

  return (
    <div className="relative overflow-hidden">
      <div className="pointer-events-none absolute inset-0 -z-10" aria-hidden="true">
        <div className="absolute top-0 left-1/2 h-[36rem] w-[60rem] -translate-x-1/2 rounded-full bg-gradient-to-b from-violet-300/40 to-transparent blur-3xl dark:from-violet-700/25" />
      </div>
      <section className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:py-28">
        <div className="text-center lg:text-left">
          <p className="mb-4 inline-flex rounded-full border border-violet-200 bg-violet-50 px-3 py-1 text-sm font-medium text-violet-700 dark:border-violet-500/30 dark:bg-violet-500/10 dark:text-violet-300">
            AI images, videos and speech
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl lg:text-6xl dark:text-white">
            Transform Your Ideas Into <span className="text-gradient">Reality</span>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-slate-600 lg:mx-0 dark:text-slate-300">
            Type a prompt and watch it become an image, a video or a natural voice, live. Built for creators and
            businesses who want studio results without the studio.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <button type="button" className="btn-primary px-8 py-3 text-lg" onClick={startCreating}>
              Start Creating
            </button>
          </div>
        </div>
        <div className="flex justify-center lg:justify-end">
          <HeroPortrait />
        </div>
      </section>
      <section aria-label="What you can create" className="mx-auto max-w-7xl px-4 pb-20 sm:px-6">
        <ul className="grid gap-4 sm:grid-cols-3">
          {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="card flex items-start gap-4 p-5">
              <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-violet-100 text-violet-700 dark:bg-violet-500/15 dark:text-violet-300">
                <Icon />
              </span>
              <div>
                <h2 className="font-semibold text-slate-900 dark:text-white">{title}</h2>
                <p className="text-sm text-slate-600 dark:text-slate-400">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
      {authOpen && (
        <Suspense fallback={null}>
          <AuthModal
            variant="sign-in-or-up"
            initialMode={hasSignedInHere() ? 'sign-in' : 'sign-up'}
            onClose={() => setAuthOpen(false)}
            onSignedIn={() => {
              setAuthOpen(false);
              void navigate('/dashboard');
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
