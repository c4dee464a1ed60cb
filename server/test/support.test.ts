import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SUPPORT_MESSAGE_LENGTH } from '@mediagen/shared';
import { bearer, createTestContext, type TestApp, type TestContext } from './support/app';
import { createAdminUser, createTestUser, type TestUser } from './support/users';

/** The support form (POST /api/support) and the operators' side of it (/admin/api/support), issue 37. */
let context: TestContext;
let server: TestApp;
let admin: TestUser;
let member: TestUser;
/** The server's log lines, parsed: a reply in development is written here instead of sent. */
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  context = await createTestContext();
  [admin, member] = await Promise.all([createAdminUser(), createTestUser()]);
  server = await context.start(
    // Behind one trusted proxy, so the tests can speak from several client addresses.
    { TRUST_PROXY: '1', SUPPORT_REQUESTS_PER_HOUR: '3' },
    {
      logger: {
        level: 'info',
        stream: { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) },
      },
    },
  );
});
afterAll(async () => {
  await context.cleanup();
});

let addresses = 0;
/** A client address no other test uses, so each test has the hourly budget to itself. */
const freshAddress = () => `203.0.113.${++addresses}`;

function send(body: unknown, options: { user?: TestUser; ip?: string; token?: string } = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-forwarded-for': options.ip ?? freshAddress(),
    ...(options.user === undefined ? {} : bearer(options.user)),
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  };
  return fetch(`${server.origin}/api/support`, { method: 'POST', headers, body: JSON.stringify(body) });
}

const valid = { email: 'visitor@example.test', topic: 'report-misuse', message: 'Someone is\nimpersonating me.' };

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe('POST /api/support', () => {
  it('a signed-out visitor sends a request: 201 with its id, kept as plain text without an account', async () => {
    const response = await send({ ...valid, message: '<img src=x onerror=alert(1)>\n  Please look.  ' });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect(await server.app.support.requests.get(id)).toMatchObject({
      status: 'open',
      uid: null,
      email: 'visitor@example.test',
      topic: 'report-misuse',
      message: '<img src=x onerror=alert(1)>\nPlease look.',
    });
  });

  it('signed in, the account is attached and its email is the default', async () => {
    const response = await send({ topic: 'billing', message: 'Where is my invoice?' }, { user: member });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect(await server.app.support.requests.get(id)).toMatchObject({ uid: member.uid, email: member.email });

    const other = await send({ ...valid, email: 'reply-here@example.test' }, { user: member, ip: freshAddress() });
    const stored = await server.app.support.requests.get(((await other.json()) as { id: number }).id);
    expect(stored).toMatchObject({ uid: member.uid, email: 'reply-here@example.test' });
  });

  it('refuses bad input with 400 in the one error shape', async () => {
    const bad: [string, unknown][] = [
      ['no email signed out', { topic: 'other', message: 'hi' }],
      ['not an email', { ...valid, email: 'nope' }],
      ['unknown topic', { ...valid, topic: 'complaints' }],
      ['empty message', { ...valid, message: '  \n ' }],
      ['message too long', { ...valid, message: 'x'.repeat(MAX_SUPPORT_MESSAGE_LENGTH + 1) }],
      ['control character', { ...valid, message: 'hello\u0000there' }],
      ['control character in the email', { ...valid, email: 'a\u001b@example.test' }],
      ['unknown field', { ...valid, html: true }],
    ];
    for (const [why, body] of bad) {
      const response = await send(body);
      expect(response.status, why).toBe(400);
      const error = await errorOf(response);
      expect(error.code, why).toBe('INVALID_REQUEST');
      expect(error.message, why).toMatch(/^Invalid request/);
    }
  });

  it('a token that is refused is told so (401), not taken as a visitor', async () => {
    const response = await send(valid, { token: 'not-a-token' });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('UNAUTHENTICATED');
  });

  it('is limited per client address: past SUPPORT_REQUESTS_PER_HOUR, 429 with Retry-After', async () => {
    const ip = freshAddress();
    for (let index = 0; index < 3; index++) expect((await send(valid, { ip })).status).toBe(201);
    const refused = await send(valid, { ip });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    // Another address is not held back.
    expect((await send(valid)).status).toBe(201);
  });

  it('is limited per account too, from however many addresses', async () => {
    const user = await createTestUser();
    for (let index = 0; index < 3; index++) expect((await send(valid, { user })).status).toBe(201);
    const refused = await send(valid, { user });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
  });
});

describe('/admin/api/support', () => {
  const adminCall = (path: string, user: TestUser | null, init: RequestInit = {}) =>
    fetch(`${server.origin}${path}`, {
      ...init,
      headers: {
        ...(user === null ? {} : bearer(user)),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
    });

  it('answers only to an admin', async () => {
    expect((await adminCall('/admin/api/support', null)).status).toBe(401);
    expect((await adminCall('/admin/api/support', member)).status).toBe(403);
    const answer = { method: 'POST', body: JSON.stringify({ reply: 'hi' }) };
    expect((await adminCall('/admin/api/support/1/answer', null, answer)).status).toBe(401);
    expect((await adminCall('/admin/api/support/1/answer', member, answer)).status).toBe(403);
  });

  it('lists open requests newest first, pages, and answering emails the reply (the log, in development)', async () => {
    const sent = await send({ ...valid, message: 'List me' });
    const { id } = (await sent.json()) as { id: number };

    const page = await adminCall('/admin/api/support?limit=1', admin);
    expect(page.status).toBe(200);
    const first = (await page.json()) as { items: { id: number; message: string }[]; nextCursor: number | null };
    expect(first.items).toEqual([expect.objectContaining({ id, message: 'List me', status: 'open' })]);
    expect(first.nextCursor).toBe(id);
    const next = (await (await adminCall(`/admin/api/support?limit=1&cursor=${id}`, admin)).json()) as {
      items: { id: number }[];
    };
    expect(next.items[0]!.id).toBeLessThan(id);

    const answered = await adminCall(`/admin/api/support/${id}/answer`, admin, {
      method: 'POST',
      body: JSON.stringify({ reply: 'We looked into it.\nAll good.' }),
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({
      id,
      status: 'answered',
      answeredBy: admin.uid,
      reply: 'We looked into it.\nAll good.',
    });
    const written = logLines.find((line) => typeof line.msg === 'string' && line.msg.includes('written to the log'));
    expect(written).toMatchObject({
      to: 'visitor@example.test',
      subject: expect.stringContaining(`#${id}`) as string,
      text: expect.stringContaining('We looked into it.\nAll good.') as string,
    });
    expect(written!.text).toContain('> List me');

    const open = (await (await adminCall('/admin/api/support', admin)).json()) as { items: { id: number }[] };
    expect(open.items.map((item) => item.id)).not.toContain(id);
    const all = (await (await adminCall('/admin/api/support?status=all', admin)).json()) as { items: { id: number }[] };
    expect(all.items.map((item) => item.id)).toContain(id);

    const again = await adminCall(`/admin/api/support/${id}/answer`, admin, { method: 'POST', body: '{}' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).code).toBe('ALREADY_ANSWERED');
    const missing = await adminCall('/admin/api/support/999999/answer', admin, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(404);
    const malformed = await adminCall('/admin/api/support/abc/answer', admin, { method: 'POST', body: '{}' });
    expect(malformed.status).toBe(400);
  });

  it('the admin page has a Support section that renders requests as text', async () => {
    const html = await (await fetch(`${server.origin}/admin`)).text();
    expect(html).toContain('Support requests');
    expect(html).toContain('/admin/api/support');
    expect(html).not.toContain('innerHTML');
  });
});
