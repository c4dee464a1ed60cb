// The Auth emulator host that server/test/support/global-setup.ts provides (its own declaration lives in
// that file, outside this folder's tsconfig).
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
