import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { Agent, request } from 'undici';
import type { AttemptRecord, PendingDelivery } from '@mediagen/core';
import { DownloadRefused, guardedLookup, isPublicAddress, refusalIn } from '../providers/guarded-download';

/** What an attempt learned: the attempt's record, and whether the receiver asked us to stop (410 Gone). */
export type SendResult = Omit<AttemptRecord, 'attemptedAt'> & { gone: boolean };

export interface SenderPolicy {
  timeoutMs: number;
  /** Development mode: loopback addresses may be reached, so a local receiver works with `pnpm dev`. */
  allowLoopback: boolean;
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/**
 * Sends one signed delivery (Standard Webhooks headers, signed with the endpoint's secret by the
 * `standardwebhooks` package) and judges the answer: a 2xx delivers; anything else fails the attempt,
 * a redirect too (never followed: it could lead anywhere, past the address check). The connection goes
 * only to public addresses (as a provider's file download), checked on the addresses actually connected
 * to, and the whole exchange is bounded by `timeoutMs`.
 */
export class WebhookSender {
  private readonly allowed: (address: string) => boolean;
  private readonly agent: Agent;
  private closing: Promise<void> | undefined;

  constructor(private readonly policy: SenderPolicy) {
    this.allowed = (address) => isPublicAddress(address) || (policy.allowLoopback && isLoopback(address));
    this.agent = new Agent({ connect: { lookup: guardedLookup(this.allowed) } });
  }

  async send(delivery: PendingDelivery, now: Date): Promise<SendResult> {
    const started = performance.now();
    const result = (fields: Omit<SendResult, 'durationMs' | 'gone'>, gone = false): SendResult => ({
      ...fields,
      gone,
      durationMs: Math.round(performance.now() - started),
    });
    const url = new URL(delivery.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address written as such is connected to without a lookup: it is checked here instead.
    if (ipaddr.isValid(host) && !this.allowed(host)) {
      return result({ ok: false, responseCode: null, error: `${host} is not a public address` });
    }
    const body = JSON.stringify(delivery.payload);
    const signature = new Webhook(delivery.secret).sign(delivery.eventId, now, body);
    try {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'MediaGen-Webhooks/1',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
          'webhook-signature': signature,
        },
        dispatcher: this.agent,
        headersTimeout: this.policy.timeoutMs,
        bodyTimeout: this.policy.timeoutMs,
        signal: AbortSignal.timeout(this.policy.timeoutMs),
      });
      await response.body.dump().catch(() => undefined);
      const status = response.statusCode;
      if (status >= 200 && status < 300) return result({ ok: true, responseCode: status, error: null });
      if (status >= 300 && status < 400) {
        return result({ ok: false, responseCode: status, error: 'redirect not followed' });
      }
      return result({ ok: false, responseCode: status, error: `answered ${status}` }, status === 410);
    } catch (error) {
      const refused = refusalIn(error);
      if (refused instanceof DownloadRefused) return result({ ok: false, responseCode: null, error: refused.message });
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || /timeout/i.test(error.name));
      const message = timedOut
        ? `no answer within ${this.policy.timeoutMs} ms`
        : error instanceof Error
          ? (error.cause instanceof Error ? error.cause.message : error.message) || error.name
          : String(error);
      return result({ ok: false, responseCode: null, error: message });
    }
  }

  /** Idempotent: a worker shutting down on a signal and its owner closing it too both end here. */
  close(): Promise<void> {
    this.closing ??= this.agent.close();
    return this.closing;
  }
}
