import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/test-database';
import {
  ConfigError,
  EnvReader,
  SupportMailUnavailable,
  SupportRequests,
  answerSupportRequest,
  createSupportMailer,
  openDatabase,
  readSupportMailSettings,
  type RecordDatabase,
  type SupportMail,
  type SupportMailer,
} from '../src';

let testDb: TestDatabase;
let database: RecordDatabase;
let requests: SupportRequests;
let now = Date.parse('2026-12-01T09:00:00Z');

beforeAll(async () => {
  testDb = await createTestDatabase('support');
  database = openDatabase(testDb.url, { maxConnections: 4 });
  requests = new SupportRequests(database.db, () => now);
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

/** A mailer that keeps what it was asked to send, or refuses. */
function keptMail(options: { fail?: boolean } = {}): SupportMailer & { sent: SupportMail[] } {
  const sent: SupportMail[] = [];
  return {
    via: 'a test',
    sent,
    async send(mail) {
      if (options.fail === true) throw new Error('SMTP refused');
      sent.push(mail);
    },
  };
}

const sample = (message = 'My video never finished.') =>
  ({ uid: null, email: 'visitor@example.test', topic: 'generation', message }) as const;

describe('support requests in the record', () => {
  it('keeps a request as sent, open, and reads it back as plain text', async () => {
    const text = '<script>alert(1)</script>\nSecond line & more';
    const created = await requests.create({ ...sample(text), uid: 'user-1', topic: 'report-misuse' });
    expect(created).toMatchObject({
      status: 'open',
      email: 'visitor@example.test',
      topic: 'report-misuse',
      message: text,
      uid: 'user-1',
      createdAt: '2026-12-01T09:00:00.000Z',
      answeredAt: null,
      answeredBy: null,
      reply: null,
    });
    expect(await requests.get(created.id)).toEqual(created);
    expect(await requests.get(999_999)).toBeNull();
  });

  it('lists open requests or all, newest first, a page at a time', async () => {
    const fresh = new SupportRequests(database.db, () => now);
    const made = [];
    for (let index = 0; index < 5; index++) made.push(await fresh.create(sample(`request ${index}`)));
    await fresh.markAnswered(made[3]!.id, { reply: null, answeredBy: 'op' });

    const all = [];
    let cursor: number | undefined;
    do {
      const page = await fresh.list({ status: 'all', limit: 2, before: cursor });
      expect(page.items.length).toBeLessThanOrEqual(2);
      all.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    const ids = all.map((request) => request.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids).toEqual(expect.arrayContaining(made.map((request) => request.id)));

    const open = await fresh.list({ status: 'open', limit: 100 });
    expect(open.nextCursor).toBeNull();
    expect(open.items.every((request) => request.status === 'open')).toBe(true);
    expect(open.items.map((request) => request.id)).not.toContain(made[3]!.id);
    expect(open.items.map((request) => request.id)).toContain(made[4]!.id);
  });

  it('marks a request answered once: of two operators at once, one answers and one is told', async () => {
    const request = await requests.create(sample());
    now += 60_000;
    const marks = await Promise.all([
      requests.markAnswered(request.id, { reply: 'First', answeredBy: 'admin-a' }),
      requests.markAnswered(request.id, { reply: 'Second', answeredBy: 'admin-b' }),
    ]);
    expect(marks.map((mark) => mark.outcome).sort()).toEqual(['already_answered', 'answered']);
    const stored = await requests.get(request.id);
    expect(stored).toMatchObject({ status: 'answered', answeredAt: new Date(now).toISOString() });
    expect([stored?.answeredBy, stored?.reply]).toEqual(
      marks[0].outcome === 'answered' ? ['admin-a', 'First'] : ['admin-b', 'Second'],
    );
    expect(await requests.markAnswered(999_999, { reply: null, answeredBy: 'op' })).toEqual({ outcome: 'not_found' });
  });
});

describe('answering', () => {
  it('emails the reply, plain text with the sender’s words quoted, and keeps who answered', async () => {
    const request = await requests.create(sample('Line one\nLine two'));
    const mailer = keptMail();
    const outcome = await answerSupportRequest({ requests, mailer }, request.id, {
      reply: 'It is fixed now.',
      answeredBy: 'admin-uid',
    });
    expect(outcome).toMatchObject({ outcome: 'answered', emailed: true });
    expect(mailer.sent).toEqual([
      {
        to: 'visitor@example.test',
        subject: `Re: your MediaGen support request #${request.id} (A generation went wrong)`,
        text: expect.stringContaining('It is fixed now.') as string,
      },
    ]);
    expect(mailer.sent[0]!.text).toContain('> Line one\n> Line two');
    expect(await requests.get(request.id)).toMatchObject({ reply: 'It is fixed now.', answeredBy: 'admin-uid' });
  });

  it('marks answered without a reply and sends nothing', async () => {
    const request = await requests.create(sample());
    const mailer = keptMail();
    expect(
      await answerSupportRequest({ requests, mailer }, request.id, { reply: null, answeredBy: 'op' }),
    ).toMatchObject({
      outcome: 'answered',
      emailed: false,
    });
    expect(mailer.sent).toEqual([]);
  });

  it('a reply that cannot be sent leaves the request open, and says so', async () => {
    const request = await requests.create(sample());
    await expect(
      answerSupportRequest({ requests, mailer: keptMail({ fail: true }) }, request.id, {
        reply: 'Hi',
        answeredBy: 'op',
      }),
    ).rejects.toThrow('SMTP refused');
    expect(await requests.get(request.id)).toMatchObject({ status: 'open', reply: null, answeredBy: null });
  });
});

describe('how replies leave', () => {
  const read = (env: Record<string, string>, requiredInProduction = true) => {
    const reader = new EnvReader(env);
    const settings = readSupportMailSettings(
      reader,
      env.MEDIAGEN_MODE === 'development' ? 'development' : 'production',
      {
        requiredInProduction,
      },
    );
    reader.finish('test');
    return settings;
  };

  it('development without SMTP_URL writes replies to the log', async () => {
    const settings = read({ MEDIAGEN_MODE: 'development' });
    expect(settings).toEqual({ kind: 'log', from: 'MediaGen support <support@localhost>' });
    const lines: { details: Record<string, unknown>; message: string }[] = [];
    const mailer = createSupportMailer(settings, { info: (details, message) => lines.push({ details, message }) });
    await mailer.send({ to: 'a@example.test', subject: 'Re: x', text: 'Hello' });
    expect(lines).toEqual([
      {
        details: expect.objectContaining({ to: 'a@example.test', subject: 'Re: x', text: 'Hello' }) as object,
        message: expect.stringContaining('written to the log') as string,
      },
    ]);
  });

  it('production refuses to start without SMTP_URL, or with it but no From, naming each', () => {
    expect(() => read({})).toThrow(ConfigError);
    expect(() => read({})).toThrow(/Missing required environment variable: SMTP_URL/);
    expect(() => read({ SMTP_URL: 'smtps://user:pass@mail.example.com' })).toThrow(/SUPPORT_EMAIL_FROM/);
    expect(() => read({ SMTP_URL: 'http://mail.example.com', SUPPORT_EMAIL_FROM: 'a@b.c' })).toThrow(
      /SMTP_URL must be an smtp/,
    );
    expect(read({ SMTP_URL: 'smtps://mail.example.com', SUPPORT_EMAIL_FROM: 'MediaGen <help@example.com>' })).toEqual({
      kind: 'smtp',
      url: 'smtps://mail.example.com',
      from: 'MediaGen <help@example.com>',
    });
  });

  it('the queue CLI in production without SMTP_URL starts, and refuses only to send', async () => {
    const settings = read({}, false);
    expect(settings).toEqual({ kind: 'off' });
    await expect(
      createSupportMailer(settings, { info: () => undefined }).send({ to: 'a@b.c', subject: 's', text: 't' }),
    ).rejects.toThrow(SupportMailUnavailable);
  });

  it('sends through SMTP as plain text', async () => {
    const smtp = await fakeSmtpServer();
    try {
      const mailer = createSupportMailer(
        { kind: 'smtp', url: `smtp://127.0.0.1:${smtp.port}`, from: 'MediaGen <help@example.com>' },
        { info: () => undefined },
      );
      await mailer.send({ to: 'visitor@example.test', subject: 'Re: hello', text: '<b>not html</b>' });
      expect(smtp.messages).toHaveLength(1);
      const message = smtp.messages[0]!;
      expect(message.recipients).toEqual(['<visitor@example.test>']);
      expect(message.data).toMatch(/^From: MediaGen <help@example\.com>/m);
      expect(message.data).toMatch(/^Content-Type: text\/plain/m);
      expect(message.data).not.toMatch(/text\/html/);
      expect(message.data).toContain('<b>not html</b>');
    } finally {
      smtp.server.close();
    }
  });
});

/** Just enough of an SMTP server for one plain message: greeting, EHLO, MAIL, RCPT, DATA, QUIT. */
async function fakeSmtpServer(): Promise<{
  server: Server;
  port: number;
  messages: { recipients: string[]; data: string }[];
}> {
  const messages: { recipients: string[]; data: string }[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    let inData = false;
    let recipients: string[] = [];
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          messages.push({ recipients, data: buffer.slice(0, end) });
          buffer = buffer.slice(end + 5);
          inData = false;
          recipients = [];
          socket.write('250 OK queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const line = buffer.slice(0, lineEnd);
        buffer = buffer.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'RCPT') {
          recipients.push(line.replace(/^RCPT TO:/i, '').trim());
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, port: (server.address() as AddressInfo).port, messages };
}
