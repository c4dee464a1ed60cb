import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { TrustProxy } from '../config';

export type TrustFunction = (address: string, hop: number) => boolean;

/** TRUST_PROXY as a rule for each hop: which proxies' X-Forwarded-For entries to believe. */
export function trustFunction(trustProxy: TrustProxy): TrustFunction {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  // A number trusts that many proxy hops in front of the server.
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return proxyAddr.compile(trustProxy);
}

/**
 * The address a raw HTTP request comes from, by the same rule Fastify gives `request.ip` (the Socket.IO
 * handshake reaches the server beside Fastify, not through it).
 */
export function clientAddress(request: IncomingMessage, trust: TrustFunction): string {
  return proxyAddr(request, trust);
}
