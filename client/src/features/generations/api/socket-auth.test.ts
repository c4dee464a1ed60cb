import type { AuthRefreshResult } from '@mediagen/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REFRESH_LEAD_MS, keepSocketAuthenticated, tokenExpiresAtMs } from './socket-auth';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const token = (expiresAtMs: number) => `h.${btoa(JSON.stringify({ exp: expiresAtMs / 1000 })).replace(/=+$/, '')}.s`;

function fakeSocket(answer: (token: string) => AuthRefreshResult) {
  return {
    sent: [] as string[],
    emit: vi.fn(function (this: { sent: string[] }, _event: string, sent: string, ack: (r: AuthRefreshResult) => void) {
      this.sent.push(sent);
      ack(answer(sent));
    }),
    disconnect: vi.fn(),
    connect: vi.fn(),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

describe('keeping a socket authenticated', () => {
  it('reads the expiry from the token, and an unreadable token as expired', () => {
    expect(tokenExpiresAtMs(token(NOW + 3_600_000))).toBe(NOW + 3_600_000);
    expect(tokenExpiresAtMs('not-a-token')).toBe(0);
  });

  it('sends the next token shortly before the current one expires, again and again', async () => {
    const next = [token(NOW + 2 * 3_600_000), token(NOW + 3 * 3_600_000)];
    const socket = fakeSocket((sent) => ({ ok: true, expiresAt: new Date(tokenExpiresAtMs(sent)).toISOString() }));
    const session = keepSocketAuthenticated(socket, async () => next.shift() ?? null);
    session.connected(token(NOW + 3_600_000));

    await vi.advanceTimersByTimeAsync(3_600_000 - REFRESH_LEAD_MS - 1);
    expect(socket.emit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(socket.sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(socket.sent).toHaveLength(2);
    expect(socket.disconnect).not.toHaveBeenCalled();
    session.stop();
  });

  it('reconnects when the server refuses the refresh, or when no token can be had', async () => {
    const refused = fakeSocket(() => ({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'no' } }));
    keepSocketAuthenticated(refused, async () => token(NOW + 7_200_000)).connected(token(NOW + 60_000));
    await vi.advanceTimersByTimeAsync(1);
    expect(refused.disconnect).toHaveBeenCalledOnce();
    expect(refused.connect).toHaveBeenCalledOnce();

    const signedOut = fakeSocket(() => ({ ok: true, expiresAt: new Date(NOW).toISOString() }));
    keepSocketAuthenticated(signedOut, async () => null).connected(token(NOW + 60_000));
    await vi.advanceTimersByTimeAsync(1);
    expect(signedOut.emit).not.toHaveBeenCalled();
    expect(signedOut.connect).toHaveBeenCalledOnce();
  });

  it('stops when the socket goes away', async () => {
    const socket = fakeSocket(() => ({ ok: true, expiresAt: new Date(NOW + 3_600_000).toISOString() }));
    const session = keepSocketAuthenticated(socket, async () => token(NOW + 3_600_000));
    session.connected(token(NOW + 60_000));
    session.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(socket.emit).not.toHaveBeenCalled();
  });
});
