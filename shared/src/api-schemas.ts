import { z } from 'zod';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import { MAX_SEARCH_LENGTH } from './contract';
import { GENERATION_ID_PATTERN, GENERATION_KINDS, GENERATION_STATUSES } from './kinds';
import { TOKEN_STATES } from './tokens';
import { PLAN_IDS } from './plans';
import { LANGUAGE_CODES, SPEECH_FORMATS, VOICE_IDS } from './speech';
import { choiceOf, singleLineText, wholeNumberText } from './request-text';

/**
 * The API's responses and parameters, written once: the server validates and serialises with these
 * schemas, and the TypeScript types of the contract (`contract.ts`) are inferred from them. The client
 * imports the types only, so none of this reaches its bundle.
 */

const isoDate = z.string();

export const apiErrorSchema = z.object({
  code: z.enum(Object.keys(ERROR_MESSAGES) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
});

export const errorBodySchema = z.object({ error: apiErrorSchema });

export const generationResultSchema = z.object({
  /** A short-lived signed URL an <img>, <video> or <audio> can load without a bearer header. */
  url: z.string(),
  mimeType: z.string(),
});

export const queuePositionSchema = z.object({
  /** 1-based place in the queue of its kind. */
  position: z.number().int().min(1),
  /** Estimated milliseconds until it starts, from recent run times; null when unknown. */
  etaMs: z.number().int().nullable(),
  /** Its provider is held back for now (a spend budget, the kill switch): it waits, with no estimate. */
  busy: z.boolean().optional(),
});

/** A speech generation's settings as it is read: the spec voice asked for and the voice the model reads with. */
export const speechDetailsSchema = z.object({
  model: z.string(),
  voice: z.enum(VOICE_IDS),
  /** The provider's voice: the nearest to `voice` on a model that does not have it. */
  voiceUsed: z.string(),
  language: z.enum(LANGUAGE_CODES),
  speed: z.number(),
  format: z.enum(SPEECH_FORMATS),
});

/** The whole state of one generation: every `generation:update` event and every GET carries it. */
export const generationSchema = z.object({
  id: z.string(),
  kind: z.enum(GENERATION_KINDS),
  status: z.enum(GENERATION_STATUSES),
  /**
   * Grows with every transition of the generation's state. A client keeps the update with the highest
   * version; at the same version, progress only rises (progress and queue position are not transitions).
   */
  version: z.number().int().min(1),
  /** 0..99 until completed, then 100. */
  progress: z.number().int().min(0).max(100),
  /** What happened to its token so far (`held` until the generation ends). */
  token: z.enum(TOKEN_STATES),
  /**
   * A provider call that may cost money was made for it: canceling it now stops the work and the token
   * stays spent. False while none was (or each was refused before any work), so a cancel gives it back.
   */
  paidWorkStarted: z.boolean(),
  /** ISO 8601. */
  createdAt: isoDate,
  updatedAt: isoDate,
  /** The image or video prompt, or the speech text, as normalised and stored. */
  prompt: z.string(),
  result: generationResultSchema.optional(),
  /** A completed generation whose file retention deleted (ISO 8601): the record stays, without `result`. */
  resultExpiredAt: isoDate.optional(),
  error: apiErrorSchema.optional(),
  queue: queuePositionSchema.optional(),
  /** Speech only: how it is (or was) read. */
  speech: speechDetailsSchema.optional(),
});

/** GET /api/speech: the speech model in use, so the panel shows the voice each choice is read with. */
export const speechModelInfoSchema = z.object({
  model: z.string(),
  speed: z.object({ min: z.number(), max: z.number() }),
  voices: z.record(z.enum(VOICE_IDS), z.string()),
});

/** DELETE /api/me: closing an account is only done when asked for in so many words. */
export const closeAccountSchema = z.object({ confirm: z.literal(true) });

export const generationListSchema = z.object({
  items: z.array(generationSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});

const tokenBalanceSchema = z.object({
  image: z.number().int().min(0),
  video: z.number().int().min(0),
  speech: z.number().int().min(0),
});

export const meSchema = z.object({
  uid: z.string(),
  email: z.string().nullable(),
  tokens: tokenBalanceSchema,
  allowance: tokenBalanceSchema,
  /** ISO 8601: when the balances reset to the allowance. */
  resetsAt: isoDate,
  plan: z.enum(PLAN_IDS),
});

/** The admin API's view of a user's plan, and what setting one changed. */
export const planChangeSchema = z.object({
  uid: z.string(),
  plan: z.enum(PLAN_IDS),
  /** The plan before, when this moved the user; null when nothing changed or it was only read. */
  from: z.enum(PLAN_IDS).nullable(),
  changed: z.boolean(),
  tokens: tokenBalanceSchema,
  allowance: tokenBalanceSchema,
  resetsAt: isoDate,
});
export type PlanChange = z.infer<typeof planChangeSchema>;

export const setPlanSchema = z.strictObject({
  plan: choiceOf(PLAN_IDS, `plan must be one of ${PLAN_IDS.join(', ')}`),
  reason: singleLineText().trim().min(1).max(200).optional(),
});

/** The admin API's spend report (the queue CLI's `spend`): estimated USD. */
export const spendQuerySchema = z.strictObject({
  by: choiceOf(['day', 'provider', 'kind', 'plan', 'user']).default('day'),
  days: wholeNumberText({ min: 1, max: 366 }).default(7),
});

export const spendReportSchema = z.object({
  killSwitch: z.object({ on: z.boolean(), since: z.string().nullable(), reason: z.string().nullable() }),
  budgets: z.record(z.string(), z.number()),
  today: z.object({ byProvider: z.record(z.string(), z.number()), total: z.number() }),
  /** Provider accounts out of credit: their paid calls wait until credit is back (README, "Provider spend"). */
  outOfCredit: z.record(z.string(), z.object({ since: z.string(), message: z.string() })),
  paused: z.record(z.string(), z.enum(['budget', 'kill_switch', 'out_of_credit'])),
  by: z.string(),
  days: z.number(),
  totals: z.array(z.object({ key: z.string(), usd: z.number(), calls: z.number() })),
});

export const setBudgetSchema = z.strictObject({
  /** null removes the budget. */
  dailyUsd: z.number().min(0).max(10_000_000).nullable(),
});

export const killSwitchSchema = z.strictObject({
  on: z.boolean(),
  reason: singleLineText().trim().min(1).max(200).optional(),
});

/**
 * GET /admin/api/generations/:id: a generation as operators read it, with the provider's answer behind
 * a failure (`providerError`), which the creator's API and socket never carry.
 */
export const operatorGenerationSchema = z.object({
  id: z.string(),
  uid: z.string(),
  kind: z.enum(GENERATION_KINDS),
  status: z.enum(GENERATION_STATUSES),
  token: z.enum(TOKEN_STATES),
  paidCalls: z.number().int(),
  providerTaskId: z.string().nullable(),
  /** What the creator reads. */
  error: apiErrorSchema.nullable(),
  providerError: z.string().nullable(),
  createdAt: isoDate,
  finishedAt: isoDate.nullable(),
});

export type OperatorGeneration = z.infer<typeof operatorGenerationSchema>;

export const generationIdParamsSchema = z.object({
  // Malformed ids read like missing ones (404), so the route checks the pattern, not the schema.
  id: z.string().max(200),
});

/** GET /api/generations: newest first, a page at a time, filtered by kind and status, searched in prompts. */
export const listQuerySchema = z.strictObject({
  kind: choiceOf(GENERATION_KINDS).optional(),
  status: choiceOf(GENERATION_STATUSES).optional(),
  /** Words to find in the prompt, case-insensitively. */
  q: singleLineText().trim().min(1).max(MAX_SEARCH_LENGTH).optional(),
  limit: wholeNumberText({ min: 1, max: 100 }).default(20),
  cursor: singleLineText()
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'cursor must be the nextCursor of a previous page' })
    .optional(),
});

export const isGenerationId = (id: string) => GENERATION_ID_PATTERN.test(id);
