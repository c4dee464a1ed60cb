import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    stack: {
      api: string;
      simulator: string;
      emulator: string;
      client: string;
      queuePrefix: string;
      /** The stack's record, for what only an operator does (moving a user to another plan). */
      databaseUrl: string;
    };
  }
}
