import { lazy, Suspense, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { onFirstInteraction } from '@/lib/first-interaction';
import { onFirstToastRequest } from '@/lib/notify';
import { AppRoutes } from './router';

// Sonner (10 KB gzip) stays out of a reading visitor's download: the toaster loads at the first press of a
// pointer or key, or when a toast asks for it. Toasts made before it mounts are replayed by Sonner when it
// subscribes.
const AppToaster = lazy(async () => ({ default: (await import('./AppToaster')).AppToaster }));

export function App() {
  const showToaster = useToasterWanted();
  return (
    <>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      {showToaster && (
        <Suspense fallback={null}>
          <AppToaster />
        </Suspense>
      )}
    </>
  );
}

function useToasterWanted(): boolean {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    if (wanted) return;
    const want = () => setWanted(true);
    const stopWaiting = onFirstInteraction(want);
    const stopListening = onFirstToastRequest(want);
    return () => {
      stopWaiting();
      stopListening();
    };
  }, [wanted]);
  return wanted;
}
