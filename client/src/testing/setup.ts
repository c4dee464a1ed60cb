import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeEach, vi } from 'vitest';
import type { StoreApi } from 'zustand';
import { resetToastQueue } from '@/lib/notify';
import { clearAllToastDeadlines } from '@/lib/toast-deadline';
import { resetAuthClientDouble } from './auth-client-double';

// Test files share their worker's modules (isolate: false), so what one file leaves in a module, the DOM or
// storage, the next file would find. Here each test starts as a fresh page.

// Mocked once for every file: a module imported by many keeps the auth client it was first given.
vi.mock('@/lib/auth-client', () => import('./auth-client-double'));

// Lazy pages are imported on first render; on a loaded 2-core CI host that can outlast the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

const stores = Object.values(import.meta.glob<Record<string, unknown>>('../**/*-store.ts', { eager: true }))
  .flatMap((module) => Object.values(module))
  .filter(isStore);

function isStore(value: unknown): value is StoreApi<unknown> {
  return typeof value === 'function' && 'getInitialState' in value && 'setState' in value;
}

beforeEach(() => {
  for (const store of stores) store.setState(store.getInitialState(), true);
  // After the stores: the persisted ones have just written their initial state.
  localStorage.clear();
  resetToastQueue();
  resetAuthClientDouble();
});

afterEach(() => {
  cleanup();
  // A toast's deadline would otherwise fire after the test's document is gone.
  clearAllToastDeadlines();
  // Sonner keeps its toasts in its module and shows those still open to the next toaster that mounts.
  toast.dismiss();
  document.title = '';
  document.documentElement.removeAttribute('class');
  window.history.replaceState(null, '', '/');
});
