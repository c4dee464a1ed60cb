import type { LanguageCode, SpeechFormat, SpeechModel, VoiceId } from '@mediagen/shared';

/** A speech generation as a speech client reads it. */
export interface SpeechInput {
  input: string;
  /** The spec voice asked for; each model reads it with its own nearest voice (speech-models.ts). */
  voice: VoiceId;
  language: LanguageCode;
  speed: number;
  format: SpeechFormat;
  model: SpeechModel;
}

export interface SpeechAudio {
  bytes: Uint8Array;
  mimeType: string;
}

/** What a long reading tells while it runs. */
export interface ReadingHooks {
  /** The share read so far, 0..1. */
  progress(share: number): void;
  /** A line for the job's log (operators read it with `pnpm queues job <id>`). */
  log(line: string): void;
}

/** One adapter per published API (the speech endpoint, the Realtime API), chosen by the model. */
export interface SpeechSynthesizer {
  synthesize(speech: SpeechInput, signal: AbortSignal, hooks?: ReadingHooks): Promise<SpeechAudio>;
}

export const QUIET_HOOKS: ReadingHooks = { progress: () => undefined, log: () => undefined };
