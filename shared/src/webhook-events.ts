/**
 * Signed webhooks (issue 39, Standard Webhooks): the events an endpoint may ask for and the limits of
 * registration, apart from their schemas (webhooks.ts) so a page that needs only these does not load zod.
 */
export const WEBHOOK_EVENT_TYPES = ['generation.completed', 'generation.failed', 'generation.canceled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** What "Send test event" sends: its own type, so a consumer never takes it for a real ending. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

export const MAX_WEBHOOK_ENDPOINTS = 10;
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;
/** The most recent deliveries listed per endpoint. */
export const WEBHOOK_DELIVERIES_LISTED = 50;
export const WEBHOOKS_PATH = '/webhooks';
