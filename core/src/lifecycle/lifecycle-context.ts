import type { Kysely } from 'kysely';
import type { PlanCatalogue } from '@mediagen/shared';
import type { Database } from '../db/schema';

/** What every part of the lifecycle works with, as GenerationLifecycle was configured. */
export interface LifecycleContext {
  readonly db: Kysely<Database>;
  /** Each plan's allowance and period (shared/src/plan-rules.ts; operators configure Pro and Enterprise). */
  readonly plans: PlanCatalogue;
  /** Provider calls that may cost money one generation may make; a retry past it fails the job. */
  readonly maxPaidCalls: number;
  now(): Date;
}
