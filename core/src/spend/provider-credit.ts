import type { Redis } from 'ioredis';
import { PROVIDERS, type ProviderName } from '@mediagen/shared';

/** A provider account that refused a paid call for want of credit: since when, and what it said. */
export interface OutOfCredit {
  since: string;
  message: string;
}

const outOfCreditKey = (prefix: string, provider: ProviderName) => `${prefix}:spend:out-of-credit:${provider}`;

/**
 * Which provider accounts have run out of credit, shared by every process through Redis: a worker marks
 * one when the provider says so, and the mark holds that provider's paid calls back on every worker
 * until an operator clears it or a balance check finds credit again. Only a person buying credit ends
 * it, so it never expires by itself.
 */
export class ProviderCredit {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Keeps the first mark's time: an outage is dated from its first refusal, however many follow. */
  async markOutOfCredit(provider: ProviderName, message: string): Promise<void> {
    const mark: OutOfCredit = { since: new Date(this.clock()).toISOString(), message };
    await this.redis.set(outOfCreditKey(this.prefix, provider), JSON.stringify(mark), 'NX');
  }

  /** True when there was a mark to clear. */
  async clear(provider: ProviderName): Promise<boolean> {
    return (await this.redis.del(outOfCreditKey(this.prefix, provider))) === 1;
  }

  async isOutOfCredit(provider: ProviderName): Promise<boolean> {
    return (await this.redis.exists(outOfCreditKey(this.prefix, provider))) === 1;
  }

  /** The providers marked out of credit now. One key per provider: each read stays on its own cluster slot. */
  async marked(): Promise<Partial<Record<ProviderName, OutOfCredit>>> {
    const raw = await Promise.all(PROVIDERS.map((provider) => this.redis.get(outOfCreditKey(this.prefix, provider))));
    const marks: Partial<Record<ProviderName, OutOfCredit>> = {};
    PROVIDERS.forEach((provider, index) => {
      const value = raw[index];
      if (value !== null && value !== undefined) marks[provider] = JSON.parse(value) as OutOfCredit;
    });
    return marks;
  }
}
