import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { FaultRule, ProviderRoute } from '../types';
import type { StatsCounter } from '../stats';
import type { FaultBook } from './faultBook';
import { isFaultKind, STATUS_FAULTS } from './parseFaultRule';

/** How one provider route answers the faults that replace its response. */
export interface FaultReplies {
  serverError(): unknown;
  rateLimited(): unknown;
  /** A 200 the client cannot use: JSON that does not parse, or bytes that are not the promised media. */
  malformed: { contentType: string; body: string };
}

export const FAULT_HEADER = 'x-sim-fault';
const DEFAULT_RETRY_AFTER_SECONDS = 1;

interface ProviderGateDeps {
  faults: FaultBook;
  stats: StatsCounter;
  latencyMs: number;
  /** Sockets held open by `hang`, so close() can end them instead of waiting forever. */
  hangingSockets: Set<Socket>;
}

/** Runs before every provider route: counts the request, adds the latency, and applies any fault. */
export class ProviderGate {
  private readonly statusFaults = new WeakMap<FastifyRequest, FaultRule>();

  constructor(private readonly deps: ProviderGateDeps) {}

  guard(route: ProviderRoute, replies: FaultReplies): onRequestAsyncHookHandler {
    return async (request, reply) => {
      this.deps.stats.countRequest(route);
      if (this.deps.latencyMs > 0) await sleep(this.deps.latencyMs);

      const header = request.headers[FAULT_HEADER];
      // A per-request header wins over the configured rules and leaves them unconsumed.
      const fault = header === undefined ? this.deps.faults.take(route) : faultFromHeader(route, header);
      if (typeof fault === 'string') return reply.code(400).send({ error: fault });
      if (!fault) return;

      if (STATUS_FAULTS.has(fault.fault)) {
        this.statusFaults.set(request, fault);
        return;
      }
      return this.replaceResponse(fault, request, reply, replies);
    };
  }

  /** The fail-status / unknown-status fault for this request; the status route applies it itself. */
  statusFaultOf(request: FastifyRequest): FaultRule | undefined {
    return this.statusFaults.get(request);
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
        throw new Error(`${fault.fault} is applied by the status route, not the gate`);
    }
  }
}

/** The rule for an `x-sim-fault` header, or a message saying why the header is unusable. */
function faultFromHeader(route: ProviderRoute, header: string | string[]): FaultRule | string {
  if (!isFaultKind(header)) return `${FAULT_HEADER} must be one fault kind; got ${JSON.stringify(header)}`;
  if (STATUS_FAULTS.has(header) && route !== 'video.query') {
    return `${FAULT_HEADER}: ${header} only applies to route video.query`;
  }
  return { route, fault: header };
}
