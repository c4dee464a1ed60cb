import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { KeyRateLimiter } from '../limits/keyRateLimiter';
import type { BillingCode } from '../openai/openaiErrors';
import type { FaultRule, ProviderRoute, RateLimitedProvider } from '../types';
import type { StatsCounter } from '../stats';
import type { FaultBook } from './faultBook';
import { isFaultKind, ROUTE_APPLIED_FAULTS, routeProblem } from './parseFaultRule';

/** How one provider route answers the faults that replace its response, in that provider's shapes. */
export interface FaultReplies {
  serverError(): unknown;
  rateLimited(): unknown;
  /** A 200 the client cannot use: JSON that does not parse, or bytes that are not the promised media. */
  malformed: { contentType: string; body: string };
  /** The provider's answer to a request over its rate limit (routes that enforce one). */
  overLimit?(): { status: number; body: unknown };
  /** MiniMax: HTTP 200 carrying this error code in `base_resp` (`minimax-code`). */
  miniMaxCode?(code: number): unknown;
  /** OpenAI: the refusal of an account that cannot pay (`insufficient-quota`, by its `billingCode`). */
  billingRefusal?(code: BillingCode | undefined): { status: number; body: unknown };
  /** Stability: what the route answers for an organization out of credit (`insufficient-balance`). */
  insufficientBalance?(): { status: number; body: unknown };
}

export const FAULT_HEADER = 'x-sim-fault';
const DEFAULT_RETRY_AFTER_SECONDS = 1;

interface ProviderGateDeps {
  faults: FaultBook;
  stats: StatsCounter;
  latencyMs: number;
  /** Sockets held open by `hang`, so close() can end them instead of waiting forever. */
  hangingSockets: Set<Socket>;
  /** The enforced request limits (none for a provider without an entry). */
  limiters: Partial<Record<RateLimitedProvider, KeyRateLimiter>>;
}

/**
 * Runs before every provider route: counts the request, adds the latency, applies any fault, then the
 * provider's rate limit for the key that sent it.
 */
export class ProviderGate {
  private readonly routeFaults = new WeakMap<FastifyRequest, FaultRule>();

  constructor(private readonly deps: ProviderGateDeps) {}

  guard(route: ProviderRoute, replies: FaultReplies, limitedBy?: RateLimitedProvider): onRequestAsyncHookHandler {
    return async (request, reply) => {
      this.deps.stats.countRequest(route);
      if (this.deps.latencyMs > 0) await sleep(this.deps.latencyMs);

      const header = request.headers[FAULT_HEADER];
      // A per-request header wins over the configured rules and leaves them unconsumed.
      const fault = header === undefined ? this.deps.faults.take(route) : faultFromHeader(route, header);
      if (typeof fault === 'string') return reply.code(400).send({ error: fault });
      if (fault && ROUTE_APPLIED_FAULTS.has(fault.fault)) this.routeFaults.set(request, fault);
      else if (fault) return this.replaceResponse(fault, request, reply, replies);

      const limiter = limitedBy === undefined ? undefined : this.deps.limiters[limitedBy];
      if (limiter === undefined || replies.overLimit === undefined) return;
      const admission = limiter.admit(request.headers.authorization ?? '');
      if (admission.admitted) return;
      this.deps.stats.countRateLimited(route, admission.lockedOut);
      const { status, body } = replies.overLimit();
      return reply.code(status).send(body);
    };
  }

  /** The fault this request's route applies itself (a task status, a filtered image), if any. */
  routeFaultOf(request: FastifyRequest): FaultRule | undefined {
    return this.routeFaults.get(request);
  }

  private replaceResponse(fault: FaultRule, request: FastifyRequest, reply: FastifyReply, replies: FaultReplies) {
    switch (fault.fault) {
      case 'http500':
        return reply.code(500).send(replies.serverError());
      case 'http429':
        return reply
          .code(429)
          .header('retry-after', String(fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS))
          .send(replies.rateLimited());
      case 'malformed':
        return reply.code(200).type(replies.malformed.contentType).send(replies.malformed.body);
      case 'minimax-code':
        return reply.code(200).send(required(replies.miniMaxCode, fault)(fault.code!));
      case 'insufficient-quota': {
        const { status, body } = required(replies.billingRefusal, fault)(fault.billingCode);
        return reply.code(status).send(body);
      }
      case 'insufficient-balance': {
        const { status, body } = required(replies.insufficientBalance, fault)();
        return reply.code(status).send(body);
      }
      case 'hang': {
        reply.hijack();
        const socket = request.raw.socket;
        this.deps.hangingSockets.add(socket);
        socket.once('close', () => this.deps.hangingSockets.delete(socket));
        return reply;
      }
      case 'drop':
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      case 'fail-status':
      case 'unknown-status':
      case 'untyped-video':
      case 'content-filtered':
      case 'rate-limit':
      case 'stray':
      case 'answer':
        throw new Error(`${fault.fault} is applied by its route, not the gate`);
    }
  }
}

/** parseFaultRule only lets a provider's own fault onto that provider's routes, whose replies have it. */
function required<T>(reply: T | undefined, fault: FaultRule): T {
  if (reply === undefined) throw new Error(`route ${fault.route} has no reply for ${fault.fault}`);
  return reply;
}

/** The rule for an `x-sim-fault` header, or a message saying why the header is unusable. */
export function faultFromHeader(route: ProviderRoute, header: string | string[]): FaultRule | string {
  if (!isFaultKind(header)) return `${FAULT_HEADER} must be one fault kind; got ${JSON.stringify(header)}`;
  if (header === 'minimax-code') return `${FAULT_HEADER}: minimax-code needs a code; add it as a rule instead`;
  const problem = routeProblem(header, route);
  return problem === undefined ? { route, fault: header } : `${FAULT_HEADER}: ${problem}`;
}
