import { z } from 'zod';
import { choiceOf, singleLineText } from './request-text';
import { WEBHOOK_EVENT_TYPES, MAX_WEBHOOK_URL_LENGTH, MAX_WEBHOOK_DESCRIPTION_LENGTH } from './webhook-events';

/**
 * Signed webhooks (issue 39, Standard Webhooks): the shapes the API takes and answers with (the events and
 * limits are in webhook-events.ts). The worker sends, the server registers, the client shows them.
 */
const isoDate = z.string();

/** POST /api/webhooks/endpoints. Whether the address may be reached is checked when each delivery connects. */
export const webhookEndpointBodySchema = z.strictObject({
  url: singleLineText()
    .trim()
    .max(MAX_WEBHOOK_URL_LENGTH, { error: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` })
    .pipe(z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' })),
  events: z
    .array(choiceOf(WEBHOOK_EVENT_TYPES, `events must be among ${WEBHOOK_EVENT_TYPES.join(', ')}`))
    .min(1, { error: 'events must name at least one event' })
    .refine((events) => new Set(events).size === events.length, { error: 'events must not repeat' }),
  description: singleLineText()
    .trim()
    .max(MAX_WEBHOOK_DESCRIPTION_LENGTH, {
      error: `description must be at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters`,
    })
    .default(''),
});

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  createdAt: isoDate,
  status: z.enum(['active', 'disabled']),
  /** Why and when the endpoint was disabled (410 Gone, failing too long); null while active. */
  disabledReason: z.string().nullable(),
  disabledAt: isoDate.nullable(),
});

/** The answer to a registration: the only time the signing secret (`whsec_…`) is shown. */
export const webhookEndpointCreatedSchema = webhookEndpointSchema.extend({ secret: z.string() });

export const webhookEndpointListSchema = z.object({
  endpoints: z.array(webhookEndpointSchema),
  maxEndpoints: z.number().int(),
  /** Whether the user's plan lets them register endpoints (Enterprise); those registered stay listed. */
  apiAccess: z.boolean(),
});

export const webhookEndpointParamsSchema = z.object({
  id: singleLineText().regex(/^ep_[0-9a-f]{32}$/, { error: 'id must be an endpoint id' }),
});

export const webhookAttemptSchema = z.object({
  attemptedAt: isoDate,
  ok: z.boolean(),
  /** The receiver's HTTP status; null when none came back (timeout, refused address, connection error). */
  responseCode: z.number().int().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  /** The `webhook-id` every attempt of this event carried. */
  id: z.string(),
  type: z.string(),
  generationId: z.string().nullable(),
  createdAt: isoDate,
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(webhookAttemptSchema),
});

export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });

export const webhookTestSentSchema = z.object({ id: z.string() });

export type WebhookEndpointBody = z.input<typeof webhookEndpointBodySchema>;
export type WebhookEndpointView = z.infer<typeof webhookEndpointSchema>;
export type WebhookEndpointCreated = z.infer<typeof webhookEndpointCreatedSchema>;
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;
export type WebhookAttemptView = z.infer<typeof webhookAttemptSchema>;
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;
