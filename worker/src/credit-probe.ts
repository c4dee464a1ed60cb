import type { ProviderCredit } from '@mediagen/core';
import type { ProviderName } from '@mediagen/shared';

/** Whether the provider account has credit for at least one paid call again; throws when it cannot tell. */
export type CreditCheck = () => Promise<boolean>;

/**
 * Ends an out-of-credit hold without an operator: while a provider is marked out of credit, each
 * maintenance pass asks it for its balance (a free call) and clears the mark once it covers a call. Only
 * providers with a check are held at all: OpenAI has no balance endpoint for an API key, so an OpenAI
 * account out of credit fails each speech job at once, token returned, and holds nothing back.
 */
export class CreditProbe {
  constructor(
    private readonly credit: ProviderCredit,
    private readonly checks: Partial<Record<ProviderName, CreditCheck>>,
    private readonly log: (message: string) => void,
  ) {}

  /** Whether a refusal for want of credit holds the provider's other jobs back. */
  holdsUntilCredit(provider: ProviderName): boolean {
    return this.checks[provider] !== undefined;
  }

  /** Holds every worker's paid calls to `provider` back, if it is one that can be probed. */
  async outOfCredit(provider: ProviderName, message: string): Promise<void> {
    if (!this.holdsUntilCredit(provider)) return;
    await this.credit.markOutOfCredit(provider, message);
    this.log(`${provider} is out of credit (${message}): its paid calls wait until credit is back`);
  }

  /** One pass: the providers whose mark it cleared. A check that fails leaves the mark for the next pass. */
  async probe(): Promise<ProviderName[]> {
    const marked = await this.credit.marked();
    const cleared: ProviderName[] = [];
    for (const provider of Object.keys(marked) as ProviderName[]) {
      const check = this.checks[provider];
      if (check === undefined) continue;
      const enough = await check().catch((error: unknown) => {
        this.log(`${provider} balance check failed: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      });
      if (enough && (await this.credit.clear(provider))) cleared.push(provider);
    }
    return cleared;
  }
}
