import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, request } from 'undici';
import type { DownloadPolicy } from '../config';
import { toNetworkError } from './http';

/** The provider's answer points somewhere a download must not go: the reason says where and why. */
export class DownloadRefused extends Error {
  override readonly name = 'DownloadRefused';
}

export interface Download {
  status: number;
  bytes: Uint8Array;
  contentType: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as the IPv4 it maps
  return parsed.range() === 'unicast';
}

function hostAllowed(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return allowed.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/**
 * Resolves like `dns.lookup`, but refuses when any address is not `allowed` (by default: not public, so
 * not loopback, private, link-local, metadata, multicast or reserved): the connection then uses exactly the
 * addresses that were checked, so a name cannot resolve to a public address for the check and a private
 * one for the request. Webhook deliveries connect through it too.
 */
export function guardedLookup(allowed: (address: string) => boolean = isPublicAddress): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => !allowed(entry.address));
      if (refused !== undefined || addresses.length === 0) {
        return callback(new DownloadRefused(`${hostname} resolves to a non-public address`), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Fetches a file a provider pointed us at, under a policy: https only (an `http://` link to the
 * provider's own file host is fetched over https), only hosts the provider serves files from, only public addresses (checked at connect time, and again after every redirect, each
 * followed by hand), at most `maxBytes`, within `timeoutMs` overall. In development the simulator's own
 * `host:port` is the one exception, reachable over http on loopback.
 */
export class GuardedDownloader {
  private readonly publicAgent = new Agent({ connect: { lookup: guardedLookup() } });
  private readonly developmentAgent = new Agent();

  constructor(private readonly policy: DownloadPolicy) {}

  async fetch(address: string, signal?: AbortSignal): Promise<Download> {
    const deadline = AbortSignal.timeout(this.policy.timeoutMs);
    const combined = signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
    let url = this.check(address);
    for (let redirects = 0; ; redirects += 1) {
      const development = this.policy.developmentHosts.includes(url.host);
      let response;
      try {
        response = await request(url, {
          method: 'GET',
          dispatcher: development ? this.developmentAgent : this.publicAgent,
          headersTimeout: this.policy.timeoutMs,
          bodyTimeout: this.policy.timeoutMs,
          signal: combined,
        });
      } catch (error) {
        throw refusalIn(error) ?? toNetworkError(error, url.href, this.policy.timeoutMs, signal);
      }
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode) && typeof location === 'string') {
        await response.body.dump();
        if (redirects >= this.policy.maxRedirects) throw new DownloadRefused('too many redirects');
        url = this.check(new URL(location, url).href);
        continue;
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > this.policy.maxBytes) {
        await response.body.dump().catch(() => undefined);
        throw new DownloadRefused(`the file is larger than ${this.policy.maxBytes} bytes`);
      }
      const bytes = await this.readCapped(response.body, url.href, signal);
      const contentType = response.headers['content-type'];
      return {
        status: response.statusCode,
        bytes,
        contentType: Array.isArray(contentType) ? contentType[0] : contentType,
        headers: response.headers,
      };
    }
  }

  /** The URL, if the policy lets a download start there. */
  private check(address: string): URL {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new DownloadRefused('the file address is not a URL');
    }
    if (this.policy.developmentHosts.includes(url.host)) return url;
    if (url.protocol === 'http:' && hostAllowed(url.hostname, this.policy.httpsUpgradeHosts)) url.protocol = 'https:';
    if (url.protocol !== 'https:') throw new DownloadRefused(`${url.protocol} is not https`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (ipaddr.isValid(host) && !isPublicAddress(host)) throw new DownloadRefused(`${host} is not a public address`);
    if (!hostAllowed(host, this.policy.allowedHosts)) throw new DownloadRefused(`${host} is not an allowed file host`);
    return url;
  }

  private async readCapped(
    body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown },
    url: string,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let total = 0;
    try {
      for await (const chunk of body) {
        total += chunk.byteLength;
        if (total > this.policy.maxBytes) {
          body.destroy();
          throw new DownloadRefused(`the file is larger than ${this.policy.maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof DownloadRefused) throw error;
      throw toNetworkError(error, url, this.policy.timeoutMs, signal);
    }
    return Buffer.concat(chunks, total);
  }

  private closing: Promise<void> | undefined;

  close(): Promise<void> {
    this.closing ??= Promise.all([this.publicAgent.close(), this.developmentAgent.close()]).then(() => undefined);
    return this.closing;
  }
}

/** The refusal behind a failed connection: undici may wrap what the lookup reported. */
export function refusalIn(error: unknown): DownloadRefused | null {
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    if (cause instanceof DownloadRefused) return cause;
  }
  return null;
}
