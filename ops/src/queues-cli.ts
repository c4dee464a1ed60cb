import { describeRedisEndpoint } from '@mediagen/core';
import { parseCli, USAGE } from './cli-args';
import { OpsConfigError, loadOpsSettings, openOpsContext } from './ops-context';
import { NotFoundError, UsageError } from './ops-errors';
import { runCommand } from './run-command';

/** `pnpm queues <command>`: the process around runCommand — argv in, text or JSON out, an exit code. */
async function main(argv: readonly string[]): Promise<number> {
  let invocation;
  try {
    invocation = parseCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`error: ${error.message}\nRun 'pnpm queues --help' for usage.`);
    return 2;
  }
  if (invocation.command.name === 'help') {
    console.log(USAGE);
    return 0;
  }
  const settings = loadOpsSettings(process.env);
  const ctx = await openOpsContext(settings).catch((error: unknown) => {
    throw new Error(
      `cannot reach Redis at ${describeRedisEndpoint(settings.redis)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  try {
    const output = await runCommand(ctx, invocation.command);
    console.log(invocation.json ? JSON.stringify(output.json, null, 2) : output.text);
    return 0;
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof UsageError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    await ctx.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      `error: ${error instanceof OpsConfigError ? error.message : error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  },
);
