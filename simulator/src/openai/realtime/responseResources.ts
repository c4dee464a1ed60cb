import { REQUESTS_PER_MINUTE, TOKENS_PER_MINUTE } from './realtimeErrors';
import type {
  ContentPart,
  MessageItem,
  RealtimeRateLimit,
  RealtimeResponseObject,
  RealtimeStatusDetails,
  RealtimeUsage,
  ResponseStatus,
} from './realtimeEvents';
import type { ResponseRequest } from './responseRequest';
import { textTokens } from './responsePlan';

/** The parts of a response the resources below are made of. */
interface ResponseFacts {
  id: string;
  request: ResponseRequest;
  context: readonly MessageItem[];
  conversationId: string | null;
}

/** The response resource (RealtimeResponse) as response.created and response.done carry it. */
export function responseObject(
  response: ResponseFacts,
  status: ResponseStatus,
  statusDetails: RealtimeStatusDetails | null,
  output: MessageItem[],
  usage: RealtimeUsage | null,
): RealtimeResponseObject {
  return {
    object: 'realtime.response',
    id: response.id,
    status,
    status_details: statusDetails,
    output,
    conversation_id: response.conversationId,
    output_modalities: response.request.outputModalities,
    max_output_tokens: response.request.maxOutputTokens,
    audio: { output: { format: response.request.format, voice: response.request.voice } },
    usage,
    metadata: response.request.metadata,
  };
}

/** The input tokens: the instructions and every text of the context the model read. */
export function contextTokens(response: ResponseFacts): number {
  const texts = response.context.flatMap((item) => item.content.map(textOf));
  return textTokens([response.request.instructions, ...texts].join('\n'));
}

export function usageOf(input: number, outputText: number, outputAudio: number): RealtimeUsage {
  const output = outputText + outputAudio;
  return {
    total_tokens: input + output,
    input_tokens: input,
    output_tokens: output,
    input_token_details: {
      text_tokens: input,
      audio_tokens: 0,
      image_tokens: 0,
      cached_tokens: 0,
      cached_tokens_details: { text_tokens: 0, audio_tokens: 0, image_tokens: 0 },
    },
    output_token_details: { text_tokens: outputText, audio_tokens: outputAudio },
  };
}

/** What rate_limits.updated reports after a response: its tokens come back as the minute's window slides on. */
export function rateLimitsAfter(usage: RealtimeUsage): RealtimeRateLimit[] {
  return [
    requestsLimit(),
    {
      name: 'tokens',
      limit: TOKENS_PER_MINUTE,
      remaining: Math.max(0, TOKENS_PER_MINUTE - usage.total_tokens),
      reset_seconds: Number(((usage.total_tokens * 60) / TOKENS_PER_MINUTE).toFixed(3)),
    },
  ];
}

/** What rate_limits.updated reports for a response refused over the limit: no tokens left for a while. */
export function rateLimitsRefused(retryAfterSeconds: number): RealtimeRateLimit[] {
  return [
    requestsLimit(),
    { name: 'tokens', limit: TOKENS_PER_MINUTE, remaining: 0, reset_seconds: retryAfterSeconds },
  ];
}

function requestsLimit(): RealtimeRateLimit {
  return {
    name: 'requests',
    limit: REQUESTS_PER_MINUTE,
    remaining: REQUESTS_PER_MINUTE - 1,
    reset_seconds: 60 / REQUESTS_PER_MINUTE,
  };
}

function textOf(part: ContentPart): string {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return part.text;
    case 'input_audio':
      return part.transcript ?? '';
    case 'output_audio':
      return part.transcript;
    case 'input_image':
      return '';
  }
}
