import { inject } from 'vitest';

/** Where a stack answers, and its record, for what only an operator does (moving a user to another plan). */
export interface StackUrls {
  api: string;
  simulator: string;
  emulator: string;
  client: string;
  queuePrefix: string;
  databaseUrl: string;
}

/** The stack of the worker running this file (Vitest numbers its workers 1 to maxWorkers). */
export function stackOfThisWorker(): StackUrls {
  const stacks = inject('stacks');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  const stack = stacks[worker - 1];
  if (stack === undefined) throw new Error(`No browser-test stack for worker ${worker} of ${stacks.length}`);
  return stack;
}
