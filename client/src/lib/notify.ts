import { clearToastDeadline, setToastDeadline } from './toast-deadline';

type Sonner = typeof import('sonner');
type ToastCall = (sonner: Sonner) => void;

export type ToastId = string | number;

export interface ToastOptions {
  /** Reuses a toast: a loading toast becomes the success or error toast with the same id. */
  id?: ToastId;
  /** Milliseconds on screen; the Toaster's default (3 s) when left out. */
  duration?: number;
  /** A second, smaller line under the message. */
  description?: string;
}

type Variant = 'message' | 'success' | 'error' | 'loading';

let sonner: Sonner | undefined;
let loading: Promise<void> | undefined;
const queued: ToastCall[] = [];
const requestListeners = new Set<() => void>();
let requested = false;
let sequence = 0;

/**
 * Every toast goes through here, so Sonner (~10 kB gzip) stays out of the landing page's chunk: it
 * is loaded on the first toast, and calls made meanwhile are queued and replayed in order. Ids are
 * given here rather than by Sonner, so a caller gets one at once even before Sonner has loaded.
 */
export const notify = {
  message: (text: string, options?: ToastOptions) => show('message', text, options),
  success: (text: string, options?: ToastOptions) => show('success', text, options),
  error: (text: string, options?: ToastOptions) => show('error', text, options),
  loading: (text: string, options?: ToastOptions) => show('loading', text, options),
  dismiss,
};

function dismiss(id: ToastId): void {
  clearToastDeadline(id);
  enqueue(({ toast }) => toast.dismiss(id));
}

function show(variant: Variant, text: string, options: ToastOptions = {}): ToastId {
  sequence += 1;
  const id = options.id ?? `toast-${sequence}`;
  enqueue(({ toast }) => {
    toast[variant](text, { ...options, id });
    // Timed from when it shows: a toast queued while Sonner loads has its whole time on screen.
    if (variant === 'loading') clearToastDeadline(id);
    else setToastDeadline(id, dismiss, options.duration);
  });
  return id;
}

function enqueue(call: ToastCall): void {
  if (sonner !== undefined) {
    call(sonner);
    return;
  }
  queued.push(call);
  loading ??= import('sonner').then(
    (module) => {
      sonner = module;
      for (const pending of queued.splice(0)) pending(module);
    },
    (error: unknown) => {
      // Kept queued: the next toast retries the load (offline, a new deploy) and shows them all.
      loading = undefined;
      console.error('Could not load notifications', error);
    },
  );
  if (!requested) {
    requested = true;
    for (const listener of requestListeners) listener();
  }
}

/**
 * Tells the app a toast is waiting, so it mounts the Toaster now rather than when the browser is
 * next idle. Called at once if one already is.
 */
export function onFirstToastRequest(listener: () => void): () => void {
  if (requested) {
    listener();
    return () => undefined;
  }
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
}
