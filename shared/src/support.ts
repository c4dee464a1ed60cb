import type { z } from 'zod';
import type {
  answerSupportRequestSchema,
  supportListQuerySchema,
  supportListSchema,
  supportRequestBodySchema,
  supportRequestSchema,
  supportSubmittedSchema,
} from './api-schemas';

/**
 * "Reaching us" (issue 37): the support form's fixed topics and limits, apart from the zod schemas so
 * the client's form reads them without bundling zod. Every support promise on the site (the plans'
 * support lines, the Code of Conduct's "report misuse") links to the form at `SUPPORT_PATH`.
 */
export const SUPPORT_TOPICS = ['account', 'billing', 'generation', 'report-misuse', 'other'] as const;
export type SupportTopic = (typeof SUPPORT_TOPICS)[number];

export const SUPPORT_TOPIC_LABELS: Record<SupportTopic, string> = {
  account: 'Account and sign-in',
  billing: 'Plans and billing',
  generation: 'A generation went wrong',
  'report-misuse': 'Report misuse',
  other: 'Something else',
};

export const SUPPORT_PATH = '/support';

/** The longest message and reply kept: a support request is a few paragraphs, never a document. */
export const MAX_SUPPORT_MESSAGE_LENGTH = 5000;
export const MAX_SUPPORT_REPLY_LENGTH = 5000;
/** RFC 5321's longest forward path. */
export const MAX_EMAIL_LENGTH = 254;

export const SUPPORT_STATUSES = ['open', 'answered'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];

export type SupportRequestBody = z.input<typeof supportRequestBodySchema>;
export type SupportSubmitted = z.infer<typeof supportSubmittedSchema>;
export type SupportRequestView = z.infer<typeof supportRequestSchema>;
export type SupportList = z.infer<typeof supportListSchema>;
export type SupportListQuery = z.infer<typeof supportListQuerySchema>;
export type AnswerSupportRequest = z.infer<typeof answerSupportRequestSchema>;
