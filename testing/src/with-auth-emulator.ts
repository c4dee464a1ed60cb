/**
 * Runs a command with one Auth emulator for the whole of it: `pnpm test` runs the suites and the browser
 * tests side by side, and starting firebase-tools costs each of them about 12 CPU-seconds on a machine the
 * run keeps busy. The emulator is this run's own (see ensureAuthEmulator), named to the command in
 * FIREBASE_AUTH_EMULATOR_HOST, and stopped when the command ends.
 *
 *   tsx testing/src/with-auth-emulator.ts <command> [args...]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ensureAuthEmulator } from './auth-emulator';

const [command, ...args] = process.argv.slice(2);
if (command === undefined) {
  console.error('Usage: with-auth-emulator <command> [args...]');
  process.exit(2);
}

const emulator = await ensureAuthEmulator();
const child = spawn(command, args, {
  stdio: 'inherit',
  env: { ...process.env, FIREBASE_AUTH_EMULATOR_HOST: emulator.host },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
await emulator.stop();
process.exit(code ?? (signal === null ? 1 : 128));
