import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: { api: string; simulator: string; emulator: string; client: string; queuePrefix: string };
  }
}
