import type { GenerationKind } from './kinds';

/** The paid providers, by the names metrics, job logs, budgets and the spend report use. */
export const PROVIDERS = ['stability', 'minimax', 'openai'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** Which provider makes each kind (one each). */
export const PROVIDER_OF_KIND: Record<GenerationKind, ProviderName> = {
  image: 'stability',
  video: 'minimax',
  speech: 'openai',
};
