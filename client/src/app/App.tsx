import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { afterFirstPaint } from '@/lib/after-first-paint';
import { onFirstToastRequest } from '@/lib/notify';
import { createAppRouter } from './router';

// Sonner stays out of the first chunk: the toaster loads once the page has painted, or sooner if a
// toast asks for it. Toasts made before it mounts are replayed by Sonner when it subscribes.
const AppToaster = lazy(async () => ({ default: (await import('./AppToaster')).AppToaster }));

export function App() {
  const [router] = useState(createAppRouter);
  const showToaster = useToasterWanted();
  return (
    <>
      <RouterProvider router={router} />
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
    const cancelIdle = afterFirstPaint(want);
    const stopListening = onFirstToastRequest(want);
    return () => {
      cancelIdle();
      stopListening();
    };
  }, [wanted]);
  return wanted;
}
