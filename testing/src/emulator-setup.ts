import type { TestProject } from 'vitest/node';
import { ensureAuthEmulator, type RunningEmulator } from './auth-emulator';

let emulator: RunningEmulator | undefined;

/**
 * One Auth emulator for the whole run, this run's own: the first project that asks starts it, and names
 * it in the environment, where the next project's setup and every test process find it.
 */
export async function setup(project: TestProject): Promise<void> {
  emulator = await ensureAuthEmulator();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
  project.provide('authEmulatorHost', emulator.host);
}

export async function teardown(): Promise<void> {
  await emulator?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    authEmulatorHost: string;
  }
}
