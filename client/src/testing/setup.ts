import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearAllToastDeadlines } from '@/lib/toast-deadline';

// Lazy pages are imported on first render; on a loaded 2-core CI host that can outlast the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  // A toast's deadline would otherwise fire after the file's document is gone.
  clearAllToastDeadlines();
  localStorage.clear();
});
