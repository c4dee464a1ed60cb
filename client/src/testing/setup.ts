import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Lazy pages are imported on first render; on a loaded 2-core CI host that can outlast the 1 s default.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
