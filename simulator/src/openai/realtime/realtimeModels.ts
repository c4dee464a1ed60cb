/**
 * The GA Realtime models and their dated snapshots, as the openai package (6.49) lists them for
 * `RealtimeSessionCreateRequest.model`. The gpt-4o…-preview models belong to the beta interface and the
 * gpt-audio models to other endpoints, so a GA session refuses them like any unknown model.
 */
export const REALTIME_MODELS: readonly string[] = [
  'gpt-realtime-2.1-mini',
  'gpt-realtime-2.1',
  'gpt-realtime-2',
  'gpt-realtime-1.5',
  'gpt-realtime',
  'gpt-realtime-2025-08-28',
  'gpt-realtime-mini',
  'gpt-realtime-mini-2025-10-06',
  'gpt-realtime-mini-2025-12-15',
];

export function isRealtimeModel(model: string): boolean {
  return REALTIME_MODELS.includes(model);
}
