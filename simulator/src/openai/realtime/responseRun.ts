import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultRule, RealtimeResponseRecord } from '../../types';
import { responseFailures } from './realtimeErrors';
import type {
  ContentLocation,
  MessageItem,
  RealtimeServerEvent,
  RealtimeStatusDetails,
  ResponseStatus,
} from './realtimeEvents';
import { bytesPerSecondOf, synthesizeRealtimeAudio } from './realtimeAudio';
import type { ResponseRequest } from './responseRequest';
import {
  audioTokens,
  planAudioResponse,
  planTextResponse,
  speakableLength,
  textTokens,
  type PlannedDelta,
} from './responsePlan';
import { contextTokens, rateLimitsAfter, rateLimitsRefused, responseObject, usageOf } from './responseResources';
import { whatTheModelSays } from './simulatedModel';
import { espeakVoiceFor } from './speechLanguage';

/** Why a response's signal aborts: the client's response.cancel, or the socket going away. */
export const CLIENT_CANCELLED = 'client_cancelled';
export const SOCKET_CLOSED = 'socket_closed';

/** `drop` and `hang` strike after this many deltas, so the client has started receiving the answer. */
const DELTAS_BEFORE_CONNECTION_FAULT = 3;
const MALFORMED_FRAME = 'this is not JSON {';

/** How a response reaches its client, and the ways a fault can break that. */
export interface ResponseChannel {
  send(event: RealtimeServerEvent): void;
  /** A frame that is not JSON (`malformed`). */
  sendRaw(frame: string): void;
  /** Destroys the connection (`drop`). */
  drop(): void;
  /** Sends nothing more, ever, and leaves the socket open (`hang`). */
  hang(): void;
  /** The session has produced audio: its voice is fixed from now on. */
  audioProduced(): void;
}

export interface ResponseRun {
  id: string;
  itemId: string;
  model: string;
  request: ResponseRequest;
  /** The items the model sees: the response's `input`, else the default conversation. */
  context: readonly MessageItem[];
  /** The default conversation's id, when the response writes to it. */
  conversationId: string | null;
  /** Adds the response's item to the default conversation (when it writes to it). */
  addToConversation(item: MessageItem): string | null;
  /** The realtime.response fault taken for it, if any. */
  fault: FaultRule | undefined;
  /** Set when the account's configured rate limit refused it. */
  overLimit: { retryAfterSeconds: number } | undefined;
  channel: ResponseChannel;
  record: RealtimeResponseRecord;
  signal: AbortSignal;
  speedup: number;
  latencyMs: number;
}

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Plays one response to its end: response.created, then either a failure (a fault or the rate limit)
 * or the model's output streamed as deltas, then response.done and rate_limits.updated. Never rejects:
 * an unexpected error ends the response `failed` with a server error.
 */
export async function runResponse(run: ResponseRun): Promise<void> {
  if (run.latencyMs > 0) await pause(run.latencyMs, run.signal);
  if (run.signal.reason === SOCKET_CLOSED) return;
  run.channel.send({ type: 'response.created', response: responseObject(run, 'in_progress', null, [], null) });
  const failure = failureOf(run);
  if (failure !== undefined) return fail(run, failure.details, failure.retryAfterSeconds);
  try {
    await streamOutput(run);
  } catch {
    fail(run, responseFailures.serverError());
  }
}

function failureOf(run: ResponseRun): { details: RealtimeStatusDetails; retryAfterSeconds?: number } | undefined {
  const requestedTokens = contextTokens(run);
  if (run.overLimit !== undefined) {
    const wait = run.overLimit.retryAfterSeconds;
    return { details: responseFailures.rateLimited(run.model, wait, requestedTokens), retryAfterSeconds: wait };
  }
  const fault = run.fault;
  if (fault?.fault === 'rate-limit') {
    const wait = fault.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    return { details: responseFailures.rateLimited(run.model, wait, requestedTokens), retryAfterSeconds: wait };
  }
  if (fault?.fault === 'insufficient-quota') return { details: responseFailures.billingRefused(fault.billingCode) };
  if (fault?.fault === 'http500') return { details: responseFailures.serverError() };
  return undefined;
}

/** A response refused before any output: for a rate limit, rate_limits.updated shows the tokens gone first. */
function fail(run: ResponseRun, details: RealtimeStatusDetails, retryAfterSeconds?: number): void {
  if (retryAfterSeconds !== undefined) {
    run.channel.send({ type: 'rate_limits.updated', rate_limits: rateLimitsRefused(retryAfterSeconds) });
  }
  run.record.status = 'failed';
  run.channel.send({ type: 'response.done', response: responseObject(run, 'failed', details, [], usageOf(0, 0, 0)) });
}

async function streamOutput(run: ResponseRun): Promise<void> {
  const { request, channel, record } = run;
  const speaks = request.outputModalities.includes('audio');
  const item: MessageItem = {
    id: run.itemId,
    object: 'realtime.item',
    type: 'message',
    status: 'in_progress',
    role: 'assistant',
    content: [],
  };
  const location: ContentLocation = { response_id: run.id, item_id: item.id, output_index: 0, content_index: 0 };
  channel.send({ type: 'response.output_item.added', response_id: run.id, output_index: 0, item });
  const previousItemId = run.addToConversation(item);
  if (run.conversationId !== null) {
    channel.send({ type: 'conversation.item.added', previous_item_id: previousItemId, item });
  }
  channel.send({
    type: 'response.content_part.added',
    ...location,
    part: speaks ? { type: 'audio', transcript: '' } : { type: 'text', text: '' },
  });

  const speechFault = run.fault?.fault === 'stray' || run.fault?.fault === 'answer' ? run.fault.fault : undefined;
  const said = whatTheModelSays(record.text, request.instructions, speechFault).slice(
    0,
    speakableLength(request.maxOutputTokens),
  );
  const plan = speaks
    ? planAudioResponse(
        said,
        await synthesizeRealtimeAudio(said, {
          voice: request.voice,
          speed: request.speed,
          language: espeakVoiceFor(request.instructions),
          format: request.format,
        }),
        request.maxOutputTokens,
      )
    : planTextResponse(said, request.maxOutputTokens);

  const sent = await sendDeltas(run, plan.deltas, location);
  if (sent === 'stopped') return;
  const cancelled = run.signal.reason === CLIENT_CANCELLED;
  const status: ResponseStatus = cancelled ? 'cancelled' : plan.cutShort ? 'incomplete' : 'completed';
  finish(run, { item, previousItemId, location }, sent, status);
}

interface SentOutput {
  transcript: string;
  audioBytes: number;
}

/**
 * Streams the deltas, audio no faster than `speedup` times real time. Stops early on a cancel (the
 * response then ends `cancelled`); answers `stopped` when the socket closed or a fault broke it off.
 */
async function sendDeltas(
  run: ResponseRun,
  deltas: readonly PlannedDelta[],
  location: ContentLocation,
): Promise<SentOutput | 'stopped'> {
  const { channel, record, fault } = run;
  const sent: SentOutput = { transcript: '', audioBytes: 0 };
  const bytesPerSecond = bytesPerSecondOf(run.request.format);
  const contentDeltas = deltas.filter((delta) => delta.kind !== 'transcript').length;
  const connectionFaultAt = Math.min(DELTAS_BEFORE_CONNECTION_FAULT, contentDeltas);
  const breakConnection = () => {
    if (fault?.fault === 'drop') channel.drop();
    else channel.hang();
    return 'stopped' as const;
  };
  const started = performance.now();
  let contentSent = 0;

  for (const delta of deltas) {
    if ((fault?.fault === 'drop' || fault?.fault === 'hang') && contentSent === connectionFaultAt) {
      return breakConnection();
    }
    if (delta.kind === 'audio') {
      const wait = (delta.startSeconds * 1000) / run.speedup - (performance.now() - started);
      // Under a millisecond timers cannot wait; those deltas go at once, still at the pace over time.
      if (wait >= 1) await pause(wait, run.signal);
    }
    if (run.signal.aborted) break;

    switch (delta.kind) {
      case 'audio':
        channel.send({ type: 'response.output_audio.delta', ...location, delta: delta.bytes.toString('base64') });
        channel.audioProduced();
        sent.audioBytes += delta.bytes.length;
        record.audioSeconds = sent.audioBytes / bytesPerSecond;
        break;
      case 'transcript':
        channel.send({ type: 'response.output_audio_transcript.delta', ...location, delta: delta.text });
        sent.transcript += delta.text;
        break;
      case 'text':
        channel.send({ type: 'response.output_text.delta', ...location, delta: delta.text });
        sent.transcript += delta.text;
        break;
    }
    record.transcript = sent.transcript;
    if (delta.kind !== 'transcript') {
      contentSent += 1;
      if (fault?.fault === 'malformed' && contentSent === 1) channel.sendRaw(MALFORMED_FRAME);
    }
  }
  if (run.signal.reason === SOCKET_CLOSED) return 'stopped';
  if ((fault?.fault === 'drop' || fault?.fault === 'hang') && !run.signal.aborted) return breakConnection();
  return sent;
}

interface OutputPlace {
  item: MessageItem;
  previousItemId: string | null;
  location: ContentLocation;
}

/** The closing events, each with what was actually sent: all of it, or as far as a cancel or the budget let it go. */
function finish(
  run: ResponseRun,
  { item, previousItemId, location }: OutputPlace,
  sent: SentOutput,
  status: ResponseStatus,
): void {
  const { channel, record } = run;
  const speaks = run.request.outputModalities.includes('audio');
  if (speaks) {
    channel.send({ type: 'response.output_audio.done', ...location });
    channel.send({ type: 'response.output_audio_transcript.done', ...location, transcript: sent.transcript });
  } else {
    channel.send({ type: 'response.output_text.done', ...location, text: sent.transcript });
  }
  channel.send({
    type: 'response.content_part.done',
    ...location,
    part: speaks ? { type: 'audio', transcript: sent.transcript } : { type: 'text', text: sent.transcript },
  });
  item.status = status === 'completed' ? 'completed' : 'incomplete';
  item.content = [
    speaks ? { type: 'output_audio', transcript: sent.transcript } : { type: 'output_text', text: sent.transcript },
  ];
  channel.send({ type: 'response.output_item.done', response_id: run.id, output_index: 0, item });
  if (run.conversationId !== null) {
    channel.send({ type: 'conversation.item.done', previous_item_id: previousItemId, item });
  }

  const outputTextTokens = textTokens(sent.transcript);
  const outputAudioTokens = audioTokens(sent.audioBytes, bytesPerSecondOf(run.request.format));
  const usage = usageOf(contextTokens(run), outputTextTokens, outputAudioTokens);
  const details: RealtimeStatusDetails | null =
    status === 'cancelled'
      ? { type: 'cancelled', reason: 'client_cancelled' }
      : status === 'incomplete'
        ? { type: 'incomplete', reason: 'max_output_tokens' }
        : null;
  record.status = status;
  channel.send({ type: 'response.done', response: responseObject(run, status, details, [item], usage) });
  channel.send({ type: 'rate_limits.updated', rate_limits: rateLimitsAfter(usage) });
}

/** Waits, or stops waiting as soon as the response is cancelled or its socket closes. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}
