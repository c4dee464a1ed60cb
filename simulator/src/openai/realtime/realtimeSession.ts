import type { RawData, WebSocket } from 'ws';
import type { FaultBook } from '../../faults/faultBook';
import type { KeyRateLimiter } from '../../limits/keyRateLimiter';
import type { StatsCounter } from '../../stats';
import type { RealtimeResponseRecord, RealtimeSessionRecord } from '../../types';
import { parseClientEvent, type ClientEvent } from './clientEvents';
import { Conversation, parseMessageItem } from './conversation';
import { serverEventFrame } from './eventFrames';
import { invalidRequestEvent, isRealtimeProblem, problems, type RealtimeProblem } from './realtimeErrors';
import type { RealtimeServerEvent, RealtimeSessionObject } from './realtimeEvents';
import { realtimeId } from './realtimeIds';
import type { RealtimeSessionLog } from './realtimeSessionLog';
import { parseResponseRequest } from './responseRequest';
import { CLIENT_CANCELLED, SOCKET_CLOSED, runResponse, type ResponseChannel } from './responseRun';
import { defaultSession, applySessionUpdate } from './sessionConfig';
import { lastUserText, textToRead } from './simulatedModel';

export interface RealtimeSessionDeps {
  faults: FaultBook;
  stats: StatsCounter;
  /** The account's configured OpenAI limit, which realtime responses count towards; none when off. */
  limiter: KeyRateLimiter | undefined;
  log: RealtimeSessionLog;
  speedup: number;
  /** Added before every response, as before every provider response over HTTP. */
  latencyMs: number;
}

interface ActiveResponse {
  id: string;
  controller: AbortController;
}

/**
 * One Realtime session on one WebSocket: answers the client events the simulator plays
 * (session.update, conversation.item.create/delete, response.create/cancel) in the API's events, with
 * at most one response in progress.
 */
export class RealtimeSession {
  private session: RealtimeSessionObject;
  private readonly conversation = new Conversation();
  private readonly record: RealtimeSessionRecord;
  private active: ActiveResponse | undefined;
  private audioProduced = false;
  /** After a `hang` or `drop` fault nothing more is sent or read, as from a stalled server. */
  private silent = false;
  /** Settles once the last event sent has left for the client. */
  private lastEventFlushed: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    model: string,
    /** The Authorization header: the key the rate limit counts against. */
    private readonly apiKey: string,
    private readonly deps: RealtimeSessionDeps,
  ) {
    this.session = defaultSession(model);
    this.record = { id: this.session.id, model, ...configurationOf(this.session), responses: [] };
  }

  /** Listens to the client and greets it with session.created, the first event of every session. */
  start(): void {
    this.deps.log.open(this.record);
    this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    this.socket.on('close', () => this.active?.controller.abort(SOCKET_CLOSED));
    // A broken frame or connection ends the socket; 'close' follows and is all this needs.
    this.socket.on('error', () => undefined);
    this.send({ type: 'session.created', session: this.session });
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.silent) return;
    const event = parseClientEvent(toBuffer(data), isBinary);
    if ('problem' in event) return this.send(invalidRequestEvent(event.problem, event.eventId));
    switch (event.type) {
      case 'session.update':
        return this.updateSession(event);
      case 'conversation.item.create':
        return this.createItem(event);
      case 'conversation.item.delete':
        return this.deleteItem(event);
      case 'response.create':
        return this.createResponse(event);
      case 'response.cancel':
        return this.cancelResponse(event);
      case 'conversation.item.retrieve':
      case 'conversation.item.truncate':
      case 'input_audio_buffer.append':
      case 'input_audio_buffer.clear':
      case 'input_audio_buffer.commit':
      case 'output_audio_buffer.clear':
        return this.refuse(event, {
          message: `The provider simulator does not simulate '${event.type}': its model reads text, not audio.`,
          param: 'type',
          code: 'unsupported_by_simulator',
        });
    }
  }

  private updateSession(event: ClientEvent): void {
    const updated = applySessionUpdate(this.session, event.fields.session, this.audioProduced);
    if (isRealtimeProblem(updated)) return this.refuse(event, updated);
    this.session = updated;
    Object.assign(this.record, configurationOf(this.session));
    this.send({ type: 'session.updated', session: this.session });
  }

  private createItem(event: ClientEvent): void {
    const item = parseMessageItem(event.fields.item, 'item');
    if (isRealtimeProblem(item)) return this.refuse(event, item);
    const previousItemId = event.fields.previous_item_id;
    if (previousItemId !== undefined && typeof previousItemId !== 'string') {
      return this.refuse(event, problems.invalidType('previous_item_id', previousItemId, 'a string'));
    }
    const placed = this.conversation.insert(item, previousItemId);
    if (isRealtimeProblem(placed)) return this.refuse(event, placed);
    this.send({ type: 'conversation.item.added', previous_item_id: placed.previousItemId, item });
    this.send({ type: 'conversation.item.done', previous_item_id: placed.previousItemId, item });
  }

  private deleteItem(event: ClientEvent): void {
    const itemId = event.fields.item_id;
    if (typeof itemId !== 'string') return this.refuse(event, problems.invalidType('item_id', itemId, 'a string'));
    const problem = this.conversation.delete(itemId);
    if (problem) return this.refuse(event, problem);
    this.send({ type: 'conversation.item.deleted', item_id: itemId });
  }

  private createResponse(event: ClientEvent): void {
    const request = parseResponseRequest(event.fields.response, this.session);
    if (isRealtimeProblem(request)) return this.refuse(event, request);
    const context =
      request.input === undefined ? [...this.conversation.all()] : this.conversation.resolve(request.input);
    if (isRealtimeProblem(context)) return this.refuse(event, context);
    if (this.active) {
      return this.refuse(event, {
        message: `Conversation already has an active response in progress: ${this.active.id}. Wait until the response is finished before creating a new one.`,
        param: null,
        code: 'conversation_already_has_active_response',
      });
    }

    this.deps.stats.countRequest('realtime.response');
    // A faulted response does not count towards the rate limit, as a faulted HTTP request does not.
    const fault = this.deps.faults.take('realtime.response');
    const overLimit = fault === undefined ? this.admit() : undefined;
    const record: RealtimeResponseRecord = {
      id: realtimeId('resp'),
      instructions: request.instructions,
      text: textToRead(lastUserText(context)),
      transcript: '',
      status: 'in_progress',
      audioSeconds: 0,
    };
    this.record.responses.push(record);
    const active: ActiveResponse = { id: record.id, controller: new AbortController() };
    this.active = active;
    const writesToConversation = request.conversation === 'auto';

    void runResponse({
      id: record.id,
      itemId: realtimeId('item'),
      model: this.session.model,
      request,
      context,
      conversationId: writesToConversation ? this.conversation.id : null,
      addToConversation: (item) => {
        if (!writesToConversation) return null;
        const placed = this.conversation.insert(item);
        return isRealtimeProblem(placed) ? null : placed.previousItemId;
      },
      fault,
      overLimit,
      channel: this.channel(),
      record,
      signal: active.controller.signal,
      speedup: this.deps.speedup,
      latencyMs: this.deps.latencyMs,
    }).finally(() => {
      if (this.active === active) this.active = undefined;
    });
  }

  private cancelResponse(event: ClientEvent): void {
    const responseId = event.fields.response_id;
    if (this.active === undefined || (responseId !== undefined && responseId !== this.active.id)) {
      return this.refuse(event, {
        message: 'Cancellation failed: no active response found',
        param: null,
        code: 'response_cancel_not_active',
      });
    }
    this.active.controller.abort(CLIENT_CANCELLED);
  }

  /** The configured OpenAI limit's verdict on one more response for this key, when it refuses. */
  private admit(): { retryAfterSeconds: number } | undefined {
    const admission = this.deps.limiter?.admit(this.apiKey);
    if (admission === undefined || admission.admitted) return undefined;
    this.deps.stats.countRateLimited('realtime.response', admission.lockedOut);
    return { retryAfterSeconds: admission.retryAfterMs / 1000 };
  }

  private channel(): ResponseChannel {
    return {
      send: (event) => this.send(event),
      sendRaw: (frame) => {
        if (!this.silent) this.socket.send(frame);
      },
      drop: () => {
        this.silent = true;
        // The events sent so far may still be on their way out; destroying the socket now would lose them.
        void this.lastEventFlushed.then(() => this.socket.terminate());
      },
      hang: () => {
        this.silent = true;
      },
      audioProduced: () => {
        this.audioProduced = true;
      },
    };
  }

  private refuse(event: ClientEvent, problem: RealtimeProblem): void {
    this.send(invalidRequestEvent(problem, event.eventId));
  }

  private send(event: RealtimeServerEvent): void {
    if (this.silent) return;
    const frame = serverEventFrame(event);
    this.lastEventFlushed = new Promise((resolve) => this.socket.send(frame, () => resolve()));
  }
}

/** The part of a session's record that session.update changes. */
function configurationOf(session: RealtimeSessionObject) {
  const { voice, speed, format } = session.audio.output;
  return { voice, speed, outputFormat: format.type, instructions: session.instructions };
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
}
