import type { WebhookEventType } from '@mediagen/shared';

/** What each event means to the person choosing it; a new event type is a compile error until it has one. */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'generation.completed': 'A generation finished with its result',
  'generation.failed': 'A generation failed',
  'generation.canceled': 'A generation was canceled',
};
