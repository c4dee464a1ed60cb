import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { RealtimeResponseCreateParams, RealtimeSessionCreateRequest } from 'openai/resources/realtime/realtime';
import { isRealtimeModel, voiceUsed, type LanguageCode } from '@mediagen/shared';
import { GenerationError } from '../../generation-error';
import { billingRefused, isBillingRefusal } from '../openai-billing';
import { ProviderBusyError } from '../provider-calls';
import {
  QUIET_HOOKS,
  type ReadingHooks,
  type SpeechAudio,
  type SpeechInput,
  type SpeechSynthesizer,
} from '../speech-synthesizer';
import { encodePcm, joinReadings, pcmSeconds, REALTIME_PCM } from './pcm-encoding';
import { checkReading } from './reading-check';
import { readingInstructions, textToRead } from './reading-instructions';
import { charactersPerSecond, readingParts } from './reading-parts';
import type { RealtimeEndpoint } from './realtime-endpoint';
import {
  ConnectionLost,
  RealtimeRefusal,
  RealtimeSession,
  type RealtimeConnection,
  type RealtimeReading,
} from './realtime-session';

export interface RealtimeSpeechConfig {
  apiKey: string;
  /** Where each session connects: OpenAI (`wss://api.openai.com/v1/realtime`), or the simulator. */
  endpoint: RealtimeEndpoint;
  connectTimeoutMs?: number;
  /** Longest silence while a part is read before the connection counts as lost. */
  idleTimeoutMs?: number;
}

/** A response's documented output limit (`max_output_tokens`: 1 to 4096, or `inf`). */
const RESPONSE_TOKEN_LIMIT = 4096;
const AUDIO_TOKENS_PER_SECOND = 20;
/** A reading may run this far past its expected length before the model is cut off: it has strayed. */
const OUTPUT_HEADROOM = 2.5;
/** Connections lost mid-reading that are opened again to go on from the part that was cut. */
const MAX_RECONNECTS = 2;
/** A rate limit met after a first part was read is waited out, when this short, instead of losing the parts read. */
const MAX_RATE_LIMIT_WAIT_MS = 10_000;
const MAX_RATE_LIMIT_WAITS = 3;

const STRAYED_MESSAGE =
  'Failed to generate speech: the voice did not read your text as written. Your token was returned.';

/** The reading of a part strayed from its text twice. */
class StrayedReading extends Error {}

/**
 * Speech through OpenAI's Realtime API (`gpt-realtime-2.1-mini`), the replacement OpenAI names for the
 * speech endpoint's models. A Realtime model is a voice agent, so it is made to read, not converse: the
 * text goes as data between markers, with instructions to read it word for word (reading-instructions.ts);
 * each part's transcript is compared with its text (reading-check.ts) and a reading that strays is read
 * again once, then the generation fails with its token returned. A long text is read in parts of about a
 * minute each, well within one response's output limit, and joined; the PCM the API returns is encoded
 * to the format asked for.
 */
export class RealtimeSpeechClient implements SpeechSynthesizer {
  constructor(private readonly config: RealtimeSpeechConfig) {}

  async synthesize(speech: SpeechInput, signal: AbortSignal, hooks: ReadingHooks = QUIET_HOOKS): Promise<SpeechAudio> {
    const { model } = speech;
    if (!isRealtimeModel(model)) throw new Error(`${model} is not served by the Realtime API`);
    const parts = readingParts(speech.input, speech.language);
    const instructions = readingInstructions(speech.language);
    const readings: Buffer[] = [];
    let session: RealtimeSession | null = null;
    let reconnects = 0;
    let rateLimitWaits = 0;
    let outputTokens = 0;
    try {
      while (readings.length < parts.length) {
        const index = readings.length;
        try {
          session ??= await this.open(
            {
              model,
              connectTimeoutMs: this.config.connectTimeoutMs ?? 15_000,
              idleTimeoutMs: this.config.idleTimeoutMs ?? 30_000,
              signal,
            },
            sessionFor(speech, instructions),
          );
          const reading = await this.readPart(
            session,
            parts,
            index,
            { instructions, language: speech.language },
            hooks,
          );
          readings.push(reading.pcm);
          outputTokens += reading.outputTokens;
          hooks.progress(readings.length / parts.length);
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          const where = `part ${index + 1}/${parts.length}`;
          if (error instanceof ConnectionLost && error.opened && reconnects < MAX_RECONNECTS) {
            reconnects += 1;
            session?.close();
            session = null;
            hooks.log(`openai realtime: connection lost in ${where} (${error.message}); connecting again to read it`);
            continue;
          }
          const waitMs = rateLimitWait(error);
          if (waitMs !== undefined && index > 0 && rateLimitWaits < MAX_RATE_LIMIT_WAITS) {
            rateLimitWaits += 1;
            hooks.log(`openai realtime: rate limited in ${where}; reading it again in ${waitMs} ms`);
            await sleep(waitMs, undefined, { signal });
            continue;
          }
          throw error;
        }
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw asProviderError(error);
    } finally {
      session?.close();
    }
    const pcm = joinReadings(readings);
    hooks.log(
      `openai realtime: read ${parts.length} part(s), ${pcmSeconds(pcm).toFixed(1)} s of audio, ${outputTokens} output tokens`,
    );
    return encodePcm(pcm, speech.format);
  }

  private async open(
    connection: Omit<RealtimeConnection, 'client' | 'ca'>,
    session: RealtimeSessionCreateRequest,
  ): Promise<RealtimeSession> {
    const target = await this.config.endpoint().catch((error: unknown) => {
      throw new ConnectionLost(error instanceof Error ? error.message : String(error), false);
    });
    const client = new OpenAI({ apiKey: this.config.apiKey, baseURL: target.baseUrl });
    return RealtimeSession.open({ ...connection, client, ca: target.ca }, session);
  }

  /** One part read, and read again once if it strays from its text. */
  private async readPart(
    session: RealtimeSession,
    parts: readonly string[],
    index: number,
    { instructions, language }: { instructions: string; language: LanguageCode },
    hooks: ReadingHooks,
  ): Promise<RealtimeReading> {
    const part = parts[index]!;
    const response: RealtimeResponseCreateParams = {
      // Out of band: each part is read on its own, never in the light of an earlier (or strayed) reading.
      conversation: 'none',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: textToRead(part) }] }],
      instructions,
      output_modalities: ['audio'],
      max_output_tokens: outputTokenLimit(part, language),
      metadata: { part: `${index + 1}/${parts.length}` },
    };
    for (let attempt = 1; ; attempt += 1) {
      const reading = await session.respond(response).catch((error: unknown) => {
        // Cut off at its limit: it read far more than the text holds.
        if (error instanceof RealtimeRefusal && error.details.reason === 'max_output_tokens') return null;
        throw error;
      });
      const check = reading === null ? null : checkReading(part, reading.transcript);
      if (reading !== null && check?.matches) return reading;
      const why =
        check === null
          ? 'it ran past the output limit'
          : `${check.edits} words differ, at most ${check.allowed} allowed`;
      hooks.log(
        `openai realtime: part ${index + 1}/${parts.length} strayed from the text (${why})` +
          (attempt === 1 ? '; reading it again' : '; giving up'),
      );
      if (attempt === 2) throw new StrayedReading(why);
    }
  }
}

function sessionFor(speech: SpeechInput, instructions: string): RealtimeSessionCreateRequest {
  return {
    type: 'realtime',
    output_modalities: ['audio'],
    instructions,
    audio: {
      // Text in, audio out: no microphone, so no voice activity detection.
      input: { turn_detection: null },
      output: {
        format: { type: 'audio/pcm', rate: REALTIME_PCM.sampleRate },
        voice: voiceUsed(speech.model, speech.voice),
        speed: speech.speed,
      },
    },
  };
}

/** What a part should take, with room to spare; a model that reads far more is cut off there. */
function outputTokenLimit(part: string, language: LanguageCode): number {
  const audioTokens = (part.length / charactersPerSecond(language)) * AUDIO_TOKENS_PER_SECOND;
  const transcriptTokens = part.length / 2;
  return Math.min(RESPONSE_TOKEN_LIMIT, Math.ceil((audioTokens + transcriptTokens) * OUTPUT_HEADROOM) + 100);
}

function isRateLimit(refusal: RealtimeRefusal): boolean {
  return (
    (refusal.details.status === 429 || refusal.details.code === 'rate_limit_exceeded') &&
    !isBillingRefusal(refusal.details)
  );
}

/** How long to wait out a rate limit met mid-reading; undefined when it is not one, or too long to wait. */
function rateLimitWait(error: unknown): number | undefined {
  if (!(error instanceof RealtimeRefusal) || !isRateLimit(error)) return undefined;
  const waitMs = error.details.retryAfterMs ?? 1000;
  return waitMs <= MAX_RATE_LIMIT_WAIT_MS ? waitMs : undefined;
}

/** A failure as the job runner sorts them: retried, paused for, or final, and whether the token is spent. */
function asProviderError(error: unknown): unknown {
  if (error instanceof GenerationError || error instanceof ProviderBusyError) return error;
  if (error instanceof StrayedReading) return new GenerationError('SPEECH_FAILED', STRAYED_MESSAGE, false, 'strayed');
  if (error instanceof ConnectionLost) {
    return new GenerationError(
      'SPEECH_FAILED',
      'Failed to generate speech',
      true,
      error.opened ? 'network' : 'unreachable',
    );
  }
  if (!(error instanceof RealtimeRefusal)) {
    return new GenerationError('SPEECH_FAILED', 'Failed to generate speech', true, 'malformed');
  }
  const { status, type, responseStatus, reason } = error.details;
  if (isBillingRefusal(error.details)) return billingRefused(error.details);
  if (isRateLimit(error))
    return new ProviderBusyError('openai', 'rate_limited', error.details.retryAfterMs, error.message);
  if (responseStatus === 'incomplete' && reason === 'content_filter') {
    return new GenerationError(
      'SPEECH_FAILED',
      'Failed to generate speech: this text cannot be read aloud',
      false,
      'content_refused',
    );
  }
  if (responseStatus === 'cancelled')
    return new GenerationError('SPEECH_FAILED', 'Failed to generate speech', true, 'network');
  // OpenAI's words are the operators': the creator reads a plain message (failure-report.ts).
  if ((status !== undefined && status >= 500) || type === 'server_error') {
    return GenerationError.of('SPEECH_FAILED', { detail: `: ${error.message}`, retryable: true, outcome: 'http_5xx' });
  }
  // Our key refused, or a request the API does not take: no retry makes it pass.
  return GenerationError.of('SPEECH_FAILED', { detail: `: ${error.message}`, retryable: false, outcome: 'http_4xx' });
}
