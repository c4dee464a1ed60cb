import { SUPPORT_TOPIC_LABELS, type SupportRequestView } from '@mediagen/shared';
import type { SupportMailer } from './support-mail';
import type { SupportRequests } from './support-requests';

export type AnswerOutcome =
  | { outcome: 'answered'; request: SupportRequestView; emailed: boolean }
  | { outcome: 'already_answered'; request: SupportRequestView }
  | { outcome: 'not_found' };

/** The reply as the sender receives it: plain text, their own words quoted below. */
export function replyMail(request: SupportRequestView, reply: string) {
  const quoted = request.message
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    to: request.email,
    subject: `Re: your MediaGen support request #${request.id} (${SUPPORT_TOPIC_LABELS[request.topic]})`,
    text: `${reply}\n\n— MediaGen support\n\nOn ${request.createdAt} you wrote:\n${quoted}\n`,
  };
}

/**
 * An operator answers a request (the admin API and `pnpm queues support answer` alike). The mark comes
 * first, a compare-and-set, so two operators answering at once never both email the sender; a reply that
 * then cannot be sent takes the mark back, and the error goes to the operator, the request open again.
 */
export async function answerSupportRequest(
  deps: { requests: SupportRequests; mailer: SupportMailer },
  id: number,
  answer: { reply: string | null; answeredBy: string },
): Promise<AnswerOutcome> {
  const marked = await deps.requests.markAnswered(id, answer);
  if (marked.outcome !== 'answered') return marked;
  if (answer.reply === null) return { ...marked, emailed: false };
  try {
    await deps.mailer.send(replyMail(marked.request, answer.reply));
  } catch (error) {
    await deps.requests.reopen(id, marked.request.answeredAt!);
    throw error;
  }
  return { ...marked, emailed: true };
}
