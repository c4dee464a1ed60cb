import 'vitest';
import type { StackUrls } from './stack';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One stack per test worker (global-setup.ts). */
    stacks: StackUrls[];
  }
}
