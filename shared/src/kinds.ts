export const GENERATION_KINDS = ['image', 'video', 'speech'] as const;
export type GenerationKind = (typeof GENERATION_KINDS)[number];

/** A generation id: its kind, then 32 random hex digits (`video_0f3c…`), so the id alone names its queue. */
export const GENERATION_ID_PATTERN = new RegExp(`^(${GENERATION_KINDS.join('|')})_[a-f0-9]{32}$`);

export function isGenerationKind(value: unknown): value is GenerationKind {
  return (GENERATION_KINDS as readonly unknown[]).includes(value);
}

/** The kind a well-formed generation id names; null for anything else. */
export function kindOfGenerationId(id: string): GenerationKind | null {
  return GENERATION_ID_PATTERN.test(id) ? (id.slice(0, id.indexOf('_')) as GenerationKind) : null;
}

/** queued → active → completed | failed | canceled (docs/ARCHITECTURE.md, "A generation's life"). */
export const GENERATION_STATUSES = ['queued', 'active', 'completed', 'failed', 'canceled'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<GenerationStatus> = new Set(['completed', 'failed', 'canceled']);

export function isFinalStatus(status: GenerationStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** Progress stays at most this until the job completes (spec §4: capped at 99, only increases). */
export const MAX_PROGRESS_BEFORE_COMPLETION = 99;

export function nextProgress(current: number, reported: number): number {
  const bounded = Math.min(Math.max(Math.round(reported), 0), MAX_PROGRESS_BEFORE_COMPLETION);
  return Math.max(current, bounded);
}
