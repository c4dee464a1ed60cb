import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, trustFunction } from '../src/http/client-address';

/** TRUST_PROXY as the HTTP API and the Socket.IO handshake both read it, on a request through two proxies. */
const throughTwoProxies = {
  socket: { remoteAddress: '10.0.0.2' },
  headers: { 'x-forwarded-for': '198.51.100.9, 10.0.0.1' },
} as unknown as IncomingMessage;

describe('the client address behind TRUST_PROXY', () => {
  it('believes no X-Forwarded-For by default', () => {
    expect(clientAddress(throughTwoProxies, trustFunction(false))).toBe('10.0.0.2');
  });

  it('believes as many hops as it is told', () => {
    expect(clientAddress(throughTwoProxies, trustFunction(1))).toBe('10.0.0.1');
    expect(clientAddress(throughTwoProxies, trustFunction(2))).toBe('198.51.100.9');
  });

  it('believes the listed proxies only', () => {
    expect(clientAddress(throughTwoProxies, trustFunction(['10.0.0.0/8']))).toBe('198.51.100.9');
    expect(clientAddress(throughTwoProxies, trustFunction(['10.0.0.2']))).toBe('10.0.0.1');
  });

  it('believes anyone with true', () => {
    expect(clientAddress(throughTwoProxies, trustFunction(true))).toBe('198.51.100.9');
  });
});
