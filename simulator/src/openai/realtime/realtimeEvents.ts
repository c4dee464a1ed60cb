/**
 * The GA Realtime API's objects and server events, as far as the simulator sends them: small copies of
 * the openai package's types (openai 6.49, resources/realtime/realtime.d.ts), which the simulator does
 * not depend on. Names follow those types; fields are those the API reference's examples carry
 * (https://developers.openai.com/api/docs/api-reference/realtime-server-events).
 */
import type { RealtimeVoice } from './realtimeVoices';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** RealtimeAudioFormats: PCM16 at 24 kHz only, or G.711 μ-law / A-law (8 kHz). */
export type RealtimeAudioFormat = { type: 'audio/pcm'; rate: 24000 } | { type: 'audio/pcmu' } | { type: 'audio/pcma' };
export type OutputModality = 'text' | 'audio';
/** An integer from 1 to 4096, or `inf` for the model's maximum. */
export type MaxOutputTokens = number | 'inf';
export type ItemStatus = 'completed' | 'incomplete' | 'in_progress';
export type ResponseStatus = 'completed' | 'cancelled' | 'failed' | 'incomplete' | 'in_progress';

/** RealtimeConversationItem{User,System,Assistant}Message content parts. */
export type ContentPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_audio'; audio?: string; transcript?: string | null }
  | { type: 'input_image'; image_url: string; detail?: string }
  | { type: 'output_text'; text: string }
  | { type: 'output_audio'; transcript: string };

export interface MessageItem {
  id: string;
  object: 'realtime.item';
  type: 'message';
  status: ItemStatus;
  role: 'user' | 'assistant' | 'system';
  content: ContentPart[];
}

/** RealtimeSessionCreateResponseGA: what session.created and session.updated carry. */
export interface RealtimeSessionObject {
  type: 'realtime';
  object: 'realtime.session';
  id: string;
  model: string;
  output_modalities: OutputModality[];
  instructions: string;
  tools: JsonValue[];
  tool_choice: JsonValue;
  max_output_tokens: MaxOutputTokens;
  tracing: JsonValue;
  truncation: JsonValue;
  prompt: JsonValue;
  expires_at: number;
  audio: {
    input: {
      format: RealtimeAudioFormat;
      transcription: JsonValue;
      noise_reduction: JsonValue;
      turn_detection: JsonValue;
    };
    output: { format: RealtimeAudioFormat; voice: RealtimeVoice; speed: number };
  };
  include: JsonValue;
}

/** RealtimeResponseUsage, with the token details the reference's response.done example carries. */
export interface RealtimeUsage {
  total_tokens: number;
  input_tokens: number;
  output_tokens: number;
  input_token_details: {
    text_tokens: number;
    audio_tokens: number;
    image_tokens: number;
    cached_tokens: number;
    cached_tokens_details: { text_tokens: number; audio_tokens: number; image_tokens: number };
  };
  output_token_details: { text_tokens: number; audio_tokens: number };
}

/** RealtimeResponseStatus; `error.message` is what the API adds to the typed `type` and `code`. */
export type RealtimeStatusDetails =
  | { type: 'cancelled'; reason: 'client_cancelled' }
  | { type: 'incomplete'; reason: 'max_output_tokens' }
  | { type: 'failed'; error: { type: string; code: string; message: string } };

/** RealtimeResponse. */
export interface RealtimeResponseObject {
  object: 'realtime.response';
  id: string;
  status: ResponseStatus;
  status_details: RealtimeStatusDetails | null;
  output: MessageItem[];
  /** null for an out-of-band response (`conversation: "none"`). */
  conversation_id: string | null;
  output_modalities: OutputModality[];
  max_output_tokens: MaxOutputTokens;
  audio: { output: { format: RealtimeAudioFormat; voice: RealtimeVoice } };
  usage: RealtimeUsage | null;
  metadata: Record<string, string> | null;
}

/** RealtimeError: `event_id` names the client event at fault, when there is one. */
export interface RealtimeError {
  type: string;
  code: string | null;
  message: string;
  param: string | null;
  event_id: string | null;
}

/** RateLimitsUpdatedEvent.RateLimit. */
export interface RealtimeRateLimit {
  name: 'requests' | 'tokens';
  limit: number;
  remaining: number;
  reset_seconds: number;
}

/** Where a content event belongs: ResponseAudioDeltaEvent and its siblings all carry these. */
export interface ContentLocation {
  response_id: string;
  item_id: string;
  output_index: number;
  content_index: number;
}

/** The content part of response.content_part.added / .done (ResponseContentPartAddedEvent.Part). */
export type ResponseContentPart = { type: 'audio'; transcript: string } | { type: 'text'; text: string };

/** The server events the simulator sends, without `event_id`, which sending adds. */
export type RealtimeServerEvent =
  | { type: 'session.created'; session: RealtimeSessionObject }
  | { type: 'session.updated'; session: RealtimeSessionObject }
  | { type: 'error'; error: RealtimeError }
  | { type: 'conversation.item.added'; previous_item_id: string | null; item: MessageItem }
  | { type: 'conversation.item.done'; previous_item_id: string | null; item: MessageItem }
  | { type: 'conversation.item.deleted'; item_id: string }
  | { type: 'response.created'; response: RealtimeResponseObject }
  | { type: 'response.output_item.added'; response_id: string; output_index: number; item: MessageItem }
  | ({ type: 'response.content_part.added'; part: ResponseContentPart } & ContentLocation)
  | ({ type: 'response.output_audio.delta'; delta: string } & ContentLocation)
  | ({ type: 'response.output_audio_transcript.delta'; delta: string } & ContentLocation)
  | ({ type: 'response.output_text.delta'; delta: string } & ContentLocation)
  | ({ type: 'response.output_audio.done' } & ContentLocation)
  | ({ type: 'response.output_audio_transcript.done'; transcript: string } & ContentLocation)
  | ({ type: 'response.output_text.done'; text: string } & ContentLocation)
  | ({ type: 'response.content_part.done'; part: ResponseContentPart } & ContentLocation)
  | { type: 'response.output_item.done'; response_id: string; output_index: number; item: MessageItem }
  | { type: 'response.done'; response: RealtimeResponseObject }
  | { type: 'rate_limits.updated'; rate_limits: RealtimeRateLimit[] };
