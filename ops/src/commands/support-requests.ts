import { answerSupportRequest, type SupportPage } from '@mediagen/core';
import type { SupportRequestView } from '@mediagen/shared';
import type { OpsContext } from '../ops-context';
import { NotFoundError, UsageError } from '../ops-errors';

/** The support form's requests, newest first: the open ones, or all. */
export async function listSupportRequests(
  ctx: OpsContext,
  status: 'open' | 'all',
  limit: number,
): Promise<SupportPage> {
  return ctx.support.requests.list({ status, limit });
}

export interface SupportAnswer {
  request: SupportRequestView;
  /** Whether the reply went out (by SMTP, or in development to stderr). */
  emailed: boolean;
  via: string;
}

/** Marks a request answered, emailing the reply if there is one, as the admin page does. */
export async function answerSupport(
  ctx: OpsContext,
  id: number,
  reply: string | null,
  by: string,
): Promise<SupportAnswer> {
  const outcome = await answerSupportRequest(ctx.support, id, { reply, answeredBy: by });
  if (outcome.outcome === 'not_found') throw new NotFoundError(`no support request ${id}`);
  if (outcome.outcome === 'already_answered') {
    throw new UsageError(
      `support request ${id} was already answered by ${outcome.request.answeredBy} at ${outcome.request.answeredAt}`,
    );
  }
  return { request: outcome.request, emailed: outcome.emailed, via: ctx.support.mailer.via };
}
