import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLAN_RULES } from '@mediagen/shared';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { apiClient, imageRequest, speechRequest } from './support/requests';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/** Spend as the API shows it: the per-user daily cap at submit, and the operators' spend routes. */
let context: TestContext;
let server: TestApp;
let admin: TestUser;

beforeAll(async () => {
  context = await createTestContext();
  admin = await createAdminUser();
  server = await context.start();
});
afterAll(() => context.cleanup());

const adminCall = (method: string, path: string, body?: unknown, as: TestUser = admin) =>
  fetch(`${server.origin}${path}`, {
    method,
    headers: { ...bearer(as), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('the per-user daily cap', () => {
  it('refuses with a clear message once a user has cost their plan\u2019s cap today, whatever tokens are left', async () => {
    const user = await createTestUser();
    const api = apiClient(server.origin, user);
    const first = await api.submit(imageRequest());
    expect(first.status).toBe(202);
    // The worker would record this when the provider accepts the call.
    await server.app.spend.ledger.record(
      { id: first.body.id as string, uid: user.uid, kind: 'image' },
      'stability',
      DEFAULT_PLAN_RULES.free.dailySpendCapUsd,
    );

    const refused = await api.submit(speechRequest());
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({
      code: 'DAILY_LIMIT',
      message: "You have reached today's generation limit for your plan. It resets at midnight UTC.",
    });
    expect((await api.me()).body.tokens.speech).toBe(2);
  });
});

describe('a held-back provider', () => {
  it('shows its queued generations as busy, with no estimate, while the kill switch is on', async () => {
    const api = apiClient(server.origin, await createTestUser());
    // No worker runs here: this one waits in line throughout.
    const waiting = await api.submit(speechRequest('waiting'));
    const busy = async () => (await api.get(waiting.body.id)).body.queue?.busy;
    await server.app.spend.controls.setKillSwitch(true, 'test');
    try {
      // The inspector reads the controls at most once a second.
      await expect.poll(busy, { timeout: 5000 }).toBe(true);
      const accepted = await api.submit(speechRequest());
      expect(accepted.status).toBe(202);
      expect(accepted.body.queue).toMatchObject({ etaMs: null, busy: true });
    } finally {
      await server.app.spend.controls.setKillSwitch(false, 'test over');
    }
    await expect.poll(busy, { timeout: 5000 }).toBeUndefined();
    const later = await api.submit(imageRequest());
    expect(later.body.queue.busy).toBeUndefined();
  });
});

describe('a provider out of credit', () => {
  it('shows queued images as busy and is in the spend report until an admin clears it', async () => {
    const api = apiClient(server.origin, await createTestUser());
    const waiting = await api.submit(imageRequest());
    const busy = async () => (await api.get(waiting.body.id)).body.queue?.busy;
    // What a worker records when Stability answers insufficient_balance.
    await server.app.spend.controls.credit.markOutOfCredit('stability', 'Stability AI error: no balance');
    await expect.poll(busy, { timeout: 5000 }).toBe(true);
    const report = (await (await adminCall('GET', '/admin/api/spend')).json()) as {
      outOfCredit: Record<string, { since: string; message: string }>;
      paused: Record<string, string>;
    };
    expect(report.outOfCredit).toEqual({
      stability: { since: expect.any(String), message: 'Stability AI error: no balance' },
    });
    expect(report.paused).toEqual({ stability: 'out_of_credit' });

    expect(
      (await adminCall('DELETE', '/admin/api/out-of-credit/stability', undefined, await createTestUser())).status,
    ).toBe(403);
    expect((await adminCall('DELETE', '/admin/api/out-of-credit/acme')).status).toBe(400);
    const cleared = await adminCall('DELETE', '/admin/api/out-of-credit/stability');
    expect(await cleared.json()).toEqual({ provider: 'stability', cleared: true });
    await expect.poll(busy, { timeout: 5000 }).toBeUndefined();
    expect(await (await adminCall('GET', '/admin/api/spend')).json()).toMatchObject({ outOfCredit: {}, paused: {} });
  });
});

describe('the admin spend API', () => {
  it('reports spend with budgets and the kill switch, and sets both', async () => {
    const user = await createTestUser();
    const image = await apiClient(server.origin, user).submit(imageRequest());
    // What a worker records once the provider accepts the call.
    await server.app.spend.ledger.record(
      { id: image.body.id as string, uid: user.uid, kind: 'image' },
      'stability',
      0.01,
    );
    expect((await adminCall('PUT', '/admin/api/budgets/minimax', { dailyUsd: 120 })).status).toBe(200);
    expect((await adminCall('PUT', '/admin/api/kill-switch', { on: true, reason: 'incident 7' })).status).toBe(200);
    const report = (await (await adminCall('GET', '/admin/api/spend?by=provider&days=1')).json()) as {
      killSwitch: { on: boolean; reason: string };
      budgets: Record<string, number>;
      paused: Record<string, string>;
      totals: { key: string; usd: number }[];
    };
    expect(report.killSwitch).toMatchObject({ on: true, reason: 'incident 7' });
    expect(report.budgets).toEqual({ minimax: 120 });
    expect(report.paused).toEqual({ stability: 'kill_switch', minimax: 'kill_switch', openai: 'kill_switch' });
    expect(report.totals.find((row) => row.key === 'stability')?.usd).toBeGreaterThan(0);

    expect((await adminCall('PUT', '/admin/api/kill-switch', { on: false })).status).toBe(200);
    expect((await adminCall('PUT', '/admin/api/budgets/minimax', { dailyUsd: null })).status).toBe(200);
    const after = (await (await adminCall('GET', '/admin/api/spend')).json()) as { paused: object; budgets: object };
    expect(after).toMatchObject({ paused: {}, budgets: {} });
  });

  it('refuses non-admins and bad input with a message', async () => {
    const member = await createTestUser();
    expect((await adminCall('PUT', '/admin/api/kill-switch', { on: true }, member)).status).toBe(403);
    const badScope = await adminCall('PUT', '/admin/api/budgets/acme', { dailyUsd: 5 });
    expect(badScope.status).toBe(400);
    const negative = await adminCall('PUT', '/admin/api/budgets/global', { dailyUsd: -1 });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it('refuses control characters in a reason or a query parameter with 400, changing nothing', async () => {
    const escaped = await adminCall('PUT', '/admin/api/kill-switch', { on: true, reason: 'incident\u001b[2J' });
    expect(escaped.status).toBe(400);
    expect(await escaped.json()).toEqual({
      error: { code: 'INVALID_REQUEST', message: expect.stringContaining('must not contain control characters') },
    });
    const query = await adminCall('GET', '/admin/api/spend?by=day%00');
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    const report = (await (await adminCall('GET', '/admin/api/spend')).json()) as { killSwitch: { on: boolean } };
    expect(report.killSwitch.on).toBe(false);
  });
});
