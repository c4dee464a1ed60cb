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

/** Sonner once loaded, the calls made before it was, and who waits for the first toast. */
interface ToastQueue {
  sonner: Sonner | undefined;
  loading: Promise<void> | undefined;
  queued: ToastCall[];
  requestListeners: Set<() => void>;
  requested: boolean;
}

function newToastQueue(): ToastQueue {
  return { sonner: undefined, loading: undefined, queued: [], requestListeners: new Set(), requested: false };
}

let queue = newToastQueue();
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
  // A load that settles after resetToastQueue() fills the queue it was started for, not the new one.
  const current = queue;
  if (current.sonner !== undefined) {
    call(current.sonner);
    return;
  }
  current.queued.push(call);
  current.loading ??= import('sonner').then(
    (module) => {
      current.sonner = module;
      for (const pending of current.queued.splice(0)) pending(module);
    },
    (error: unknown) => {
      // Kept queued: the next toast retries the load (offline, a new deploy) and shows them all.
      current.loading = undefined;
      console.error('Could not load notifications', error);
    },
  );
  if (!current.requested) {
    current.requested = true;
    for (const listener of current.requestListeners) listener();
  }
}

/**
 * Tells the app a toast is waiting, so it mounts the Toaster now rather than when the browser is
 * next idle. Called at once if one already is.
 */
export function onFirstToastRequest(listener: () => void): () => void {
  const { requested, requestListeners } = queue;
  if (requested) {
    listener();
    return () => undefined;
  }
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
}

/**
 * Back to a page that has asked for no toast and not loaded Sonner. For tests, whose files share this
 * module: each test starts as a fresh page.
 */
export function resetToastQueue(): void {
  queue = newToastQueue();
}
