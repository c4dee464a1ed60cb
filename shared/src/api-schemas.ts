import { z } from 'zod';
import { ERROR_MESSAGES, type ErrorCode } from './errors';
import { MAX_SEARCH_LENGTH } from './contract';
import { GENERATION_ID_PATTERN, GENERATION_KINDS, GENERATION_STATUSES } from './kinds';
import { TOKEN_STATES } from './tokens';
import { PLAN_IDS } from './plans';
import { LANGUAGE_CODES, SPEECH_FORMATS, VOICE_IDS } from './speech';
import { choiceOf, singleLineText, wholeNumberText, writtenText } from './request-text';
import { STABILITY_STYLE_PRESETS } from './image';
import { ASPECT_RATIOS, IMAGE_MODELS, IMAGE_RESOLUTIONS } from './image-models';
import { normalizePromptText } from './prompt-text';
import { C2PA_ACTIONS, DIGITAL_SOURCE_TYPES } from './content-credentials';
import {
  MAX_EMAIL_LENGTH,
  MAX_SUPPORT_MESSAGE_LENGTH,
  MAX_SUPPORT_REPLY_LENGTH,
  SUPPORT_STATUSES,
  SUPPORT_TOPICS,
} from './support';
import { MAX_COMPANY_LENGTH, PAID_PLAN_IDS, PLAN_SOURCES, SALES_VOLUMES, SUBSCRIPTION_STATES } from './billing';
import { BILLING_PERIODS } from './plans';

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

/**
 * What the C2PA manifest signed into a file says (Content Credentials), for both of its copies: the
 * original, and the copy with the product mark, which links serve while the owner's plan has the
 * watermark. Absent from a file stored unsigned: a format not signed yet (MP4 video, WAV, Ogg…), a
 * deployment without a signing key, or made before files were signed.
 */
export const contentCredentialsSchema = z.object({
  /** The signing certificate's common name: who signed, as checkers show it. */
  signedBy: z.string(),
  /** The organization the signing certificate names (checkers' "issued by"); absent when it names none. */
  issuer: z.string().optional(),
  /** When the worker signed it (ISO 8601). */
  signedAt: isoDate,
  /** The claim generator: the product and its version, "MediaGen 1.0.0". */
  generator: z.string(),
  /** The model that made it, as `c2pa.created` names it. */
  model: z.string(),
  /** The IPTC digital source type `c2pa.created` states: made by a trained model. */
  digitalSourceType: z.enum(DIGITAL_SOURCE_TYPES),
  /** The actions each copy's manifest lists, in order. */
  actions: z.object({
    /** `c2pa.created`. */
    original: z.array(z.enum(C2PA_ACTIONS)),
    /** `c2pa.opened` (the original as its parent ingredient), then `c2pa.watermarked`. */
    marked: z.array(z.enum(C2PA_ACTIONS)),
  }),
});

export const generationResultSchema = z.object({
  /** A short-lived signed URL an <img>, <video> or <audio> can load without a bearer header. */
  url: z.string(),
  mimeType: z.string(),
  contentCredentials: contentCredentialsSchema.optional(),
});

/**
 * One output of a generation: a file with its signed URL (an image also with the seed it was made with,
 * so "same seed again" can ask for it), or an image of a set that was not made, with why (`missing`,
 * IMAGE_MISSING_REASONS): no file, and its token came back. A filtered image also carries `filtered: true`,
 * as the contract's first version of sets said it (deprecated: read `missing`).
 */
export const generationOutputSchema = z.union([
  z.object({
    url: z.string(),
    mimeType: z.string(),
    seed: z.number().int().optional(),
    contentCredentials: contentCredentialsSchema.optional(),
  }),
  z.object({
    missing: z.literal('filtered'),
    filtered: z.literal(true),
    seed: z.number().int().optional(),
  }),
  z.object({
    missing: z.literal('failed'),
    seed: z.number().int().optional(),
  }),
]);

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

/**
 * An image's settings as recorded at submit, its first seed among them: what "same seed again" fills the
 * image panel with. Image `n` of a set (from 0) was made with `seed + n` (seedOfImage).
 */
export const imageDetailsSchema = z.object({
  model: z.enum(IMAGE_MODELS).optional(),
  aspectRatio: z.enum(ASPECT_RATIOS).optional(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  resolution: z.enum(IMAGE_RESOLUTIONS).optional(),
  stylePreset: z.enum(STABILITY_STYLE_PRESETS).optional(),
  negativePrompt: z.string().optional(),
  samples: z.number().int().min(1),
  seed: z.number().int(),
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
  /**
   * Tokens charged at submit, together: 1, or one per image of an image set. `tokensReturned` of them came
   * back when it ended (an image not made's, filtered or failed, or all of them by the token rules); 0 while
   * held.
   */
  tokenCount: z.number().int().min(1),
  tokensReturned: z.number().int().min(0),
  /**
   * A completed generation's outputs, in order: one for a video or a speech, one per image of an image set
   * (an image not made as `{ missing: 'filtered' | 'failed' }`). Absent before completion and once retention
   * deleted them.
   */
  outputs: z.array(generationOutputSchema).optional(),
  /** Deprecated: the first file of `outputs`, kept for clients that read one result. */
  result: generationResultSchema.optional(),
  /** A completed generation whose file retention deleted (ISO 8601): the record stays, without `result`. */
  resultExpiredAt: isoDate.optional(),
  error: apiErrorSchema.optional(),
  queue: queuePositionSchema.optional(),
  /** Speech only: how it is (or was) read. */
  speech: speechDetailsSchema.optional(),
  /** Image only: the settings and first seed it was made with. */
  image: imageDetailsSchema.optional(),
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
  /** Its trace's id in the tracing backend (OPERATING.md, Tracing); null when it was not traced. */
  traceId: z.string().nullable(),
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

/**
 * Text a person writes to us or an operator writes back: line breaks kept, invisible characters and runs
 * of spaces gone, capped. It is kept and shown as plain text only, never as HTML.
 */
const supportText = (max: number, what: string) =>
  writtenText()
    .transform((text) => normalizePromptText(text, { keepLineBreaks: true }))
    .pipe(
      z
        .string()
        .min(1, { error: `${what} must not be empty` })
        .max(max, { error: `${what} must be at most ${max} characters` }),
    );

const emailAddress = singleLineText()
  .trim()
  .max(MAX_EMAIL_LENGTH, { error: `email must be at most ${MAX_EMAIL_LENGTH} characters` })
  .pipe(z.email({ error: 'email must be an email address' }));

/**
 * POST /api/support, signed in or not. Signed in, `email` may be left out: the account's address is
 * used. Signed out, it is required (the route says so).
 */
export const supportRequestBodySchema = z.strictObject({
  email: emailAddress.optional(),
  topic: choiceOf(SUPPORT_TOPICS, `topic must be one of ${SUPPORT_TOPICS.join(', ')}`),
  message: supportText(MAX_SUPPORT_MESSAGE_LENGTH, 'message'),
});

export const supportSubmittedSchema = z.object({ id: z.number().int() });

/** A support request as operators read it (the admin API, `pnpm queues support`). */
export const supportRequestSchema = z.object({
  id: z.number().int(),
  status: z.enum(SUPPORT_STATUSES),
  email: z.string(),
  topic: z.enum(SUPPORT_TOPICS),
  message: z.string(),
  /** The account that sent it, when signed in. */
  uid: z.string().nullable(),
  createdAt: isoDate,
  answeredAt: isoDate.nullable(),
  /** The admin's uid, or the operator named by the queue CLI. */
  answeredBy: z.string().nullable(),
  /** What was sent back by email; null when it was marked answered without one. */
  reply: z.string().nullable(),
});

export const supportListSchema = z.object({
  items: z.array(supportRequestSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().int().nullable(),
});

/** GET /admin/api/support: the open requests (or all), newest first, a page at a time. */
export const supportListQuerySchema = z.strictObject({
  status: choiceOf(['open', 'all'], 'status must be open or all').default('open'),
  limit: wholeNumberText({ min: 1, max: 100 }).default(20),
  cursor: wholeNumberText({ min: 1, max: 2_147_483_647 }).optional(),
});

export const supportIdParamsSchema = z.object({ id: wholeNumberText({ min: 1, max: 2_147_483_647 }) });

/** POST /admin/api/support/:id/answer: marks it answered; with a reply, the reply is emailed to the sender. */
export const answerSupportRequestSchema = z.strictObject({
  reply: supportText(MAX_SUPPORT_REPLY_LENGTH, 'reply').optional(),
});

/** POST /api/billing/checkout: the plan and period the signed-in user picked on Pricing. */
export const checkoutBodySchema = z.strictObject({
  plan: choiceOf(PAID_PLAN_IDS, `plan must be one of ${PAID_PLAN_IDS.join(', ')}`),
  period: choiceOf(BILLING_PERIODS, `period must be one of ${BILLING_PERIODS.join(', ')}`),
  /** "Start Free Trial": a trial, when this person has never had one (otherwise checkout without one). */
  trial: z.boolean().default(false),
});

/** The answer to checkout and portal requests: the browser goes to `url`. */
export const billingRedirectSchema = z.object({
  /** `portal` when the account already has a live subscription: a second one is never sold. */
  kind: z.enum(['checkout', 'portal']),
  url: z.url(),
});

/** GET /api/billing: the signed-in user's plan as billing sees it. */
export const billingStateSchema = z.object({
  plan: z.enum(PLAN_IDS),
  source: z.enum(PLAN_SOURCES),
  subscription: z.enum(SUBSCRIPTION_STATES),
  /** The paid plan's period, when subscribed. */
  period: z.enum(BILLING_PERIODS).nullable(),
  /** ISO 8601: when the paid period (or the trial) ends; null when not subscribed. */
  currentPeriodEnd: isoDate.nullable(),
  /** Canceled or downgraded: the plan stays until `currentPeriodEnd`, then becomes `nextPlan`. */
  nextPlan: z.enum(PLAN_IDS).nullable(),
  /** Past due: the plan stays until then (the grace period), then falls back to Free. */
  graceEndsAt: isoDate.nullable(),
  /** Whether "Start Free Trial" would give this person a trial (once per person, closed accounts included). */
  trialAvailable: z.boolean(),
  /** Whether checkout is configured on this deployment (prices and keys set). */
  checkoutAvailable: z.boolean(),
  /** How long "Start Free Trial"'s trial lasts on this deployment (BILLING_TRIAL_DAYS). */
  trialDays: z.number().int(),
});

/** POST /api/sales, signed in or not: Enterprise's "Contact Sales". */
export const salesRequestBodySchema = z.strictObject({
  email: emailAddress.optional(),
  company: singleLineText()
    .trim()
    .min(1, { error: 'company must not be empty' })
    .max(MAX_COMPANY_LENGTH, { error: `company must be at most ${MAX_COMPANY_LENGTH} characters` }),
  volume: choiceOf(SALES_VOLUMES, `volume must be one of ${SALES_VOLUMES.join(', ')}`),
  message: supportText(MAX_SUPPORT_MESSAGE_LENGTH, 'message'),
});

/** A Contact Sales request as operators read it (GET /admin/api/sales, `pnpm queues sales`). */
export const salesRequestSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  company: z.string(),
  volume: z.enum(SALES_VOLUMES),
  message: z.string(),
  /** The sender's account when signed in. */
  uid: z.string().nullable(),
  createdAt: isoDate,
});

export const salesListSchema = z.object({
  items: z.array(salesRequestSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().int().nullable(),
});

/** GET /admin/api/sales: the newest first, a page at a time. */
export const salesListQuerySchema = z.strictObject({
  limit: wholeNumberText({ min: 1, max: 100 }).default(20),
  cursor: wholeNumberText({ min: 1, max: 2_147_483_647 }).optional(),
});

/** The `account:update` socket event: the account's plan and balance now. */
export const accountUpdateSchema = z.object({
  plan: z.enum(PLAN_IDS),
  tokens: tokenBalanceSchema,
  allowance: tokenBalanceSchema,
  resetsAt: isoDate,
});
