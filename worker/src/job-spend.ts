import type { Job } from 'bullmq';
import {
  estimateCostUsd,
  type CostContext,
  type GenerationRecord,
  type PriceTable,
  type SpendControls,
  type SpendLedger,
} from '@mediagen/core';
import type { ProviderName } from '@mediagen/shared';
import type { CreditProbe } from './credit-probe';
import type { JobSpend } from './paid-calls';
import type { ProviderCall } from './providers/provider-calls';
import type { WorkerMetrics } from './observability/worker-metrics';

interface Options {
  controls: SpendControls;
  ledger: SpendLedger;
  prices: PriceTable;
  costContext: CostContext;
  metrics: WorkerMetrics;
  credit: CreditProbe;
  retryAfterMs: number;
  log(message: string): void;
}

/** Spend as a job run meets it: held back before a paid call, recorded once the provider accepted it. */
export function createJobSpend(options: Options): JobSpend {
  return {
    retryAfterMs: options.retryAfterMs,
    holdBack: (provider) => options.controls.holdBack(provider),
    outOfCredit: (provider, message) => options.credit.outOfCredit(provider, message),
    async accepted(job: Job, generation: GenerationRecord, provider: ProviderName, call: ProviderCall) {
      // A 4K image is two paid calls, each priced as what it is.
      const priced = call === 'image_upscale' ? 'upscale' : 'generate';
      const usd = estimateCostUsd(generation.kind, generation.request, options.prices, options.costContext, priced);
      try {
        const recorded = await options.ledger.record(generation, provider, usd);
        options.metrics.spent(provider, recorded.kind, recorded.plan, usd);
        void job.log(`${provider}: estimated cost $${usd.toFixed(4)}`).catch(() => undefined);
      } catch (error) {
        // The call happened and the job goes on: only the estimate is missing from the reports.
        options.log(`could not record the cost of ${generation.id}: ${String(error)}`);
      }
    },
  };
}
