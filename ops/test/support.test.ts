import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { TEST_REDIS_URL, deleteKeys, testPrefix } from '@mediagen/testing';
import { createTestDatabase, type TestDatabase } from '@mediagen/core/testing';
import {
  NotFoundError,
  UsageError,
  openOpsContext,
  parseCli,
  runCommand,
  type Command,
  type OpsContext,
  type OpsSettings,
} from '../src';

/** `pnpm queues support`: the support form's requests, read and answered from a shell (issue 37). */
const prefix = testPrefix('test-ops-support');
let database: TestDatabase;
let ctx: OpsContext;
let quiet: OpsContext;

const settings = (url: string, supportMail: OpsSettings['supportMail']): OpsSettings => ({
  plans: DEFAULT_PLAN_RULES,
  databaseUrl: url,
  redis: { kind: 'direct', url: TEST_REDIS_URL },
  queuePrefix: prefix,
  jobs: { attempts: 1, backoffMs: 10 },
  jobRetention: { completedSeconds: 3600, failedSeconds: 3600 },
  artifactStore: { kind: 'file', directory: resolve(tmpdir(), prefix, 'artifacts') },
  maxInFlightPerUser: 3,
  supportMail,
});

beforeAll(async () => {
  database = await createTestDatabase('ops_support');
  // Development without SMTP_URL: replies are printed. And production without it: replies refused.
  ctx = await openOpsContext(settings(database.url, { kind: 'log', from: 'MediaGen <support@localhost>' }));
  quiet = await openOpsContext(settings(database.url, { kind: 'off' }));
});
afterAll(async () => {
  await deleteKeys(ctx.redis, `${prefix}:*`);
  await ctx.close();
  await quiet.close();
  await database.drop();
});

const run = (context: OpsContext, argv: string[]) =>
  runCommand(context, parseCli(argv).command as Exclude<Command, { name: 'help' }>);

const received = (message: string, uid: string | null = null) =>
  ctx.support.requests.create({ uid, email: 'someone@example.test', topic: 'report-misuse', message });

describe('pnpm queues support', () => {
  it('parses the list and the answer, and refuses what does not fit', () => {
    expect(parseCli(['support']).command).toEqual({ name: 'support', action: 'list', status: 'open', limit: 100 });
    expect(parseCli(['support', '--all', '--limit', '5']).command).toMatchObject({ status: 'all', limit: 5 });
    expect(parseCli(['support', 'answer', '12', '--reply', ' Thanks!\n ', '--by', 'ana']).command).toEqual({
      name: 'support',
      action: 'answer',
      id: 12,
      reply: 'Thanks!',
      by: 'ana',
    });
    expect(parseCli(['support', 'answer', '12']).command).toMatchObject({
      reply: null,
      by: expect.stringMatching(/^operator /) as string,
    });
    for (const argv of [
      ['support', 'answer'],
      ['support', 'answer', 'abc'],
      ['support', 'answer', '0'],
      ['support', 'answer', '1', '2'],
      ['support', 'answer', '1', '--reply', 'bad\u0007bell'],
      ['support', 'answer', '1', '--all'],
      ['support', '--reply', 'x'],
      ['support', 'close', '1'],
    ]) {
      expect(() => parseCli(argv), argv.join(' ')).toThrow(UsageError);
    }
  });

  it('lists the open requests, newest first, each message whole', async () => {
    const older = await received('First line\nsecond line', 'user-7');
    const newer = await received('Newer one');
    const output = await run(ctx, ['support']);
    const ids = (output.json as { items: { id: number }[] }).items.map((item) => item.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(output.text).toContain(`#${older.id}  open  Report misuse  someone@example.test  account user-7`);
    expect(output.text).toContain('    First line\n    second line');
  });

  it('answers with a reply (printed in development), then lists it only with --all', async () => {
    const request = await received('Please help');
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const output = await run(ctx, ['support', 'answer', String(request.id), '--reply', 'Done.', '--by', 'ana']);
      expect(output.text).toBe(
        `support request ${request.id} answered; the reply went to someone@example.test through the log (development: SMTP_URL is unset)`,
      );
      expect(printed).toHaveBeenCalledOnce();
      expect(String(printed.mock.calls[0]![0])).toContain('Done.');
    } finally {
      printed.mockRestore();
    }
    expect(await ctx.support.requests.get(request.id)).toMatchObject({
      status: 'answered',
      answeredBy: 'ana',
      reply: 'Done.',
    });
    const open = await run(ctx, ['support', '--json']);
    expect((open.json as { items: { id: number }[] }).items.map((item) => item.id)).not.toContain(request.id);
    const all = await run(ctx, ['support', '--all']);
    expect(all.text).toContain(`answered by ana at`);

    await expect(run(ctx, ['support', 'answer', String(request.id)])).rejects.toThrow(/already answered by ana/);
    await expect(run(ctx, ['support', 'answer', '2000000000'])).rejects.toThrow(NotFoundError);
  });

  it('without SMTP_URL in production, a reply is refused and the request stays open; a plain mark works', async () => {
    const request = await received('Anyone there?');
    await expect(run(quiet, ['support', 'answer', String(request.id), '--reply', 'Yes'])).rejects.toThrow(
      /set SMTP_URL/,
    );
    expect(await ctx.support.requests.get(request.id)).toMatchObject({ status: 'open' });
    const marked = await run(quiet, ['support', 'answer', String(request.id), '--by', 'ana']);
    expect(marked.text).toBe(`support request ${request.id} marked answered (no reply sent)`);
  });
});
