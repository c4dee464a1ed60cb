import type { TestProject } from 'vitest/node';
import { ensureAuthEmulator, type RunningEmulator } from './auth-emulator';

let emulator: RunningEmulator | undefined;

/** One Auth emulator for the whole run; test files read its host from the environment. */
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
