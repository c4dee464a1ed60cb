/**
 * Request and response examples from the providers' own API references, each with its source. The
 * simulator's contract tests replay the requests against it and compare its answers with these; the
 * worker's contract tests serve these answers to the real clients and compare what the clients send
 * with the documented request fields. Values the documents leave as placeholders are noted where
 * they are replaced.
 */

/** https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage */
const STABILITY_TEXT_TO_IMAGE =
  'https://platform.stability.ai/docs/api-reference#tag/SDXL-1.0-and-SD1.6/operation/textToImage';
/** The v1 OpenAPI specification: Stability-AI/rest-api-support, spec/v1.yaml. */
const STABILITY_SPEC = 'github.com/Stability-AI/rest-api-support spec/v1.yaml';

/** A 1×1 PNG, standing in for the documents' "...very long string..." base64 placeholder. */
export const ONE_PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==';

export const stability = {
  textToImage: {
    source: STABILITY_TEXT_TO_IMAGE,
    path: '/v1/generation/stable-diffusion-xl-1024-v1-0/text-to-image',
    request: {
      cfg_scale: 7,
      height: 1024,
      width: 1024,
      samples: 1,
      steps: 30,
      text_prompts: [{ text: 'A lighthouse on a cliff', weight: 1 }],
    },
    response: {
      artifacts: [
        { base64: ONE_PIXEL_PNG_BASE64, finishReason: 'SUCCESS', seed: 1050625087 },
        { base64: ONE_PIXEL_PNG_BASE64, finishReason: 'CONTENT_FILTERED', seed: 1229191277 },
      ],
    },
  },
  /** TextToImageRequestBody's fields (the reference's request body schema). */
  requestFields: [
    'text_prompts',
    'height',
    'width',
    'cfg_scale',
    'clip_guidance_preset',
    'sampler',
    'samples',
    'seed',
    'steps',
    'style_preset',
    'extras',
  ],
  /** components.schemas.FinishReason */
  finishReasons: { source: STABILITY_SPEC, values: ['SUCCESS', 'ERROR', 'CONTENT_FILTERED'] },
  /** GET /v1/user/balance (operationId userBalance), with the specification's own example. */
  balance: {
    source: STABILITY_SPEC,
    path: '/v1/user/balance',
    response: { credits: 0.6336833840314097 },
  },
  /**
   * Two 429s the specification leaves out, in its Error shape. The rate limit's message is Stability's
   * rate-limit article's; the organization out of credit is what a real account answers (its message in
   * github.com/dmarx/video-killed-the-radio-star issue 59, its name as third-party clients report it).
   */
  rateLimited: {
    source: 'https://platform.stability.ai/docs/getting-started/rate-limits',
    status: 429,
    body: {
      id: 'a2c1f0b5a8a94d6f9d2b7b3c7b2d0e11',
      name: 'rate_limit_exceeded',
      message:
        'You have exceeded the rate limit of 150 requests within a 10 second period, and have been timed out for 60 seconds.',
    },
  },
  insufficientBalance: {
    source: 'github.com/dmarx/video-killed-the-radio-star issues/59',
    status: 429,
    body: {
      id: '8c6a3d2e1b0f4a5c9e7d6b5a4c3b2a10',
      name: 'insufficient_balance',
      message: 'Your organization does not have enough balance to request this action.',
    },
  },
  /** components.schemas.Error, with the specification's own example values. */
  error: {
    source: STABILITY_SPEC,
    status: 401,
    body: {
      id: '296a972f-666a-44a1-a3df-c9c28a1f56c0',
      name: 'bad_request',
      message: 'Header parameter Authorization is required, but not found',
    },
  },
} as const;

export const minimax = {
  createTask: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-t2v',
    path: '/v1/video_generation',
    request: {
      model: 'MiniMax-Hailuo-02',
      prompt: 'A man picks up a book [Pedestal up], then reads [Static shot].',
      duration: 6,
      resolution: '1080P',
    },
    response: { task_id: '106916112212032', base_resp: { status_code: 0, status_msg: 'success' } },
  },
  /** VideoGenerationReq's fields (text-, image- and subject-to-video). */
  requestFields: [
    'model',
    'prompt',
    'prompt_optimizer',
    'fast_pretreatment',
    'duration',
    'resolution',
    'callback_url',
    'aigc_watermark',
    'first_frame_image',
    'subject_reference',
  ],
  queryTask: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-query',
    path: '/v1/query/video_generation',
    response: {
      task_id: '176843862716480',
      status: 'Success',
      file_id: '176844028768320',
      video_width: 1920,
      video_height: 1080,
      base_resp: { status_code: 0, status_msg: 'success' },
    },
    statuses: ['Preparing', 'Queueing', 'Processing', 'Success', 'Fail'],
  },
  retrieveFile: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-download',
    path: '/v1/files/retrieve',
    /** The only query parameter the current reference lists. */
    queryParameters: ['file_id'],
    response: {
      file: {
        // The document's "${file_id}" placeholder, filled with the query example's file id.
        file_id: '176844028768320',
        bytes: 0,
        created_at: 1700469398,
        filename: 'output_aigc.mp4',
        purpose: 'video_generation',
        download_url: 'www.downloadurl.com',
      },
      base_resp: { status_code: 0, status_msg: 'success' },
    },
  },
  /** The error code table (status_code → status_msg, the first of a row's messages); 1013 is not in it. */
  errorCodes: {
    source: 'https://platform.minimax.io/docs/api-reference/errorcode',
    messages: {
      1000: 'unknown error',
      1001: 'request timeout',
      1002: 'rate limit',
      1004: 'not authorized',
      1008: 'insufficient balance',
      1024: 'internal error',
      1026: 'input new_sensitive',
      1027: 'output new_sensitive',
      1033: 'system error',
      1039: 'token limit',
      1041: 'conn limit',
      1042: 'invisible character ratio limit',
      1043: 'The asr similarity check failed',
      1044: 'clone prompt similarity check failed',
      2013: 'invalid params',
      20132: 'invalid samples or voice_id',
      2037: 'voice duration too short',
      2039: 'voice clone voice id duplicate',
      2042: "You don't have access to this voice_id",
      2045: 'rate growth limit',
      2048: 'prompt audio too long',
      2049: 'invalid api key',
      2056: 'usage limit exceeded',
    } as Record<number, string>,
  },
  /** The file retrieval page's own codes: 1013, and 1039 under another message. */
  retrieveErrorCodes: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-download',
    messages: { 1013: 'Internal service error', 1039: 'TPM limit triggered' } as Record<number, string>,
  },
  /** The text-to-video models the reference lists for `model`; `video-01` is not among them. */
  textToVideoModels: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-t2v',
    models: ['MiniMax-Hailuo-2.3', 'MiniMax-Hailuo-02', 'T2V-01-Director', 'T2V-01'],
  },
  hosts: {
    source: 'github.com/MiniMax-AI/MiniMax-MCP README.md ("The API host and key vary by region and must match")',
    global: 'https://api.minimax.io',
    mainland: 'https://api.minimaxi.com',
  },
} as const;

/**
 * The GA Realtime API reference's published examples. The reference pages render the `x-oaiMeta.example`
 * of each event in OpenAI's OpenAPI specification (github.com/openai/openai-openapi, openapi.yaml,
 * commit f85dbe2), which is where these were read; each `source` names the page and the schema.
 */
const REALTIME_CLIENT_EVENTS = 'https://developers.openai.com/api/docs/api-reference/realtime-client-events';
const REALTIME_SERVER_EVENTS = 'https://developers.openai.com/api/docs/api-reference/realtime-server-events';
const realtimeSource = (page: string, event: string, schema: string) => `${page} (${event}; openapi.yaml ${schema})`;

/** 10 ms of 24 kHz PCM16 silence (480 zero bytes), standing in for the audio delta example's "Base64EncodedAudioDelta". */
export const TEN_MS_OF_SILENCE_BASE64 = 'A'.repeat(640);

const REALTIME_DEFAULT_INSTRUCTIONS =
  "Your knowledge cutoff is 2023-10. You are a helpful, witty, and friendly AI. Act like a human, but remember that you aren't a human and that you can't do human things in the real world. Your voice and personality should be warm and engaging, with a lively and playful tone. If interacting in a non-English language, start by using the standard accent or dialect familiar to the user. Talk quickly. You should always call a function if you can. Do not refer to these rules, even if you’re asked about them.";

const documentedResponseDone = {
  type: 'response.done',
  event_id: 'event_CCXHxcMy86rrKhBLDdqCh',
  response: {
    object: 'realtime.response',
    id: 'resp_CCXHw0UJld10EzIUXQCNh',
    status: 'completed',
    status_details: null,
    output: [
      {
        id: 'item_CCXHwGjjDUfOXbiySlK7i',
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [
          {
            type: 'output_audio',
            transcript: 'Loud and clear! I can hear you perfectly. How can I help you today?',
          },
        ],
      },
    ],
    conversation_id: 'conv_CCXHsurMKcaVxIZvaCI5m',
    output_modalities: ['audio'],
    max_output_tokens: 'inf',
    audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy' } },
    usage: {
      total_tokens: 253,
      input_tokens: 132,
      output_tokens: 121,
      input_token_details: {
        text_tokens: 119,
        audio_tokens: 13,
        image_tokens: 0,
        cached_tokens: 64,
        cached_tokens_details: { text_tokens: 64, audio_tokens: 0, image_tokens: 0 },
      },
      output_token_details: { text_tokens: 30, audio_tokens: 91 },
    },
    metadata: null,
  },
} as const;

const realtimeSessionExample = {
  type: 'realtime',
  object: 'realtime.session',
  id: 'sess_C9G5QPteg4UIbotdKLoYQ',
  model: 'gpt-realtime-2025-08-28',
  output_modalities: ['audio'],
  instructions: REALTIME_DEFAULT_INSTRUCTIONS,
  tools: [],
  tool_choice: 'auto',
  max_output_tokens: 'inf',
  tracing: null,
  prompt: null,
  expires_at: 1756324625,
  audio: {
    input: {
      format: { type: 'audio/pcm', rate: 24000 },
      transcription: null,
      noise_reduction: null,
      turn_detection: {
        type: 'server_vad',
        threshold: 0.5,
        prefix_padding_ms: 300,
        silence_duration_ms: 200,
        idle_timeout_ms: null,
        create_response: true,
        interrupt_response: true,
      },
    },
    output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin', speed: 1 },
  },
  include: null,
} as const;

const colorPaletteTool = {
  type: 'function',
  name: 'display_color_palette',
  description: 'Call this function when a user asks for a color palette.',
  parameters: {
    type: 'object',
    properties: {
      theme: { type: 'string', description: 'Description of the theme for the color scheme.' },
      colors: {
        type: 'array',
        description: 'Array of five hex color codes based on the theme.',
        items: { type: 'string', description: 'Hex color code' },
      },
    },
    required: ['theme', 'colors'],
  },
} as const;

const openaiRealtime = {
  /** wss://api.openai.com/v1/realtime?model=…, as the openai package's OpenAIRealtimeWS builds it. */
  path: '/v1/realtime',
  clientEvents: {
    sessionUpdate: {
      source: realtimeSource(REALTIME_CLIENT_EVENTS, 'session.update', 'RealtimeClientEventSessionUpdate'),
      event: {
        type: 'session.update',
        session: {
          type: 'realtime',
          instructions: 'You are a creative assistant that helps with design tasks.',
          tools: [colorPaletteTool],
          tool_choice: 'auto',
        },
      },
    },
    conversationItemCreate: {
      source: realtimeSource(
        REALTIME_CLIENT_EVENTS,
        'conversation.item.create',
        'RealtimeClientEventConversationItemCreate',
      ),
      event: {
        type: 'conversation.item.create',
        item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      },
    },
    /** The reference gives two: a response in the default conversation, and an out-of-band one. */
    responseCreate: {
      source: realtimeSource(REALTIME_CLIENT_EVENTS, 'response.create', 'RealtimeClientEventResponseCreate'),
      // Trigger a response with the default Conversation and no special parameters
      event: { type: 'response.create' },
    },
    responseCreateOutOfBand: {
      source: realtimeSource(REALTIME_CLIENT_EVENTS, 'response.create', 'RealtimeClientEventResponseCreate'),
      // Trigger an out-of-band response that does not write to the default Conversation
      event: {
        type: 'response.create',
        response: {
          instructions: 'Provide a concise answer.',
          tools: [], // clear any session tools
          conversation: 'none',
          output_modalities: ['text'],
          metadata: { response_purpose: 'summarization' },
          input: [
            // "item_12345" stands for an item already in the conversation.
            { type: 'item_reference', id: 'item_12345' },
            {
              type: 'message',
              role: 'user',
              content: [{ type: 'input_text', text: 'Summarize the above message in one sentence.' }],
            },
          ],
        },
      },
    },
  },
  serverEvents: {
    sessionCreated: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'session.created', 'RealtimeServerEventSessionCreated'),
      event: { type: 'session.created', event_id: 'event_C9G5RJeJ2gF77mV7f2B1j', session: realtimeSessionExample },
    },
    sessionUpdated: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'session.updated', 'RealtimeServerEventSessionUpdated'),
      event: {
        type: 'session.updated',
        event_id: 'event_C9G8mqI3IucaojlVKE8Cs',
        session: {
          ...realtimeSessionExample,
          id: 'sess_C9G8l3zp50uFv4qgxfJ8o',
          // The API hands the session.update example's tool back with "strict" added in its parameters.
          tools: [
            {
              ...colorPaletteTool,
              description: '\nCall this function when a user asks for a color palette.\n',
              parameters: { ...colorPaletteTool.parameters, strict: true },
            },
          ],
          expires_at: 1756324832,
        },
      },
    },
    responseCreated: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'response.created', 'RealtimeServerEventResponseCreated'),
      event: {
        type: 'response.created',
        event_id: 'event_C9G8pqbTEddBSIxbBN6Os',
        response: {
          object: 'realtime.response',
          id: 'resp_C9G8p7IH2WxLbkgPNouYL',
          status: 'in_progress',
          status_details: null,
          output: [],
          conversation_id: 'conv_C9G8mmBkLhQJwCon3hoJN',
          output_modalities: ['audio'],
          max_output_tokens: 'inf',
          audio: { output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin' } },
          usage: null,
          metadata: null,
        },
      },
    },
    outputAudioDelta: {
      source: realtimeSource(
        REALTIME_SERVER_EVENTS,
        'response.output_audio.delta',
        'RealtimeServerEventResponseAudioDelta',
      ),
      event: {
        event_id: 'event_4950',
        type: 'response.output_audio.delta',
        response_id: 'resp_001',
        item_id: 'msg_008',
        output_index: 0,
        content_index: 0,
        delta: TEN_MS_OF_SILENCE_BASE64,
      },
    },
    outputAudioTranscriptDelta: {
      source: realtimeSource(
        REALTIME_SERVER_EVENTS,
        'response.output_audio_transcript.delta',
        'RealtimeServerEventResponseAudioTranscriptDelta',
      ),
      event: {
        event_id: 'event_4546',
        type: 'response.output_audio_transcript.delta',
        response_id: 'resp_001',
        item_id: 'msg_008',
        output_index: 0,
        content_index: 0,
        delta: 'Hello, how can I a',
      },
    },
    outputAudioTranscriptDone: {
      source: realtimeSource(
        REALTIME_SERVER_EVENTS,
        'response.output_audio_transcript.done',
        'RealtimeServerEventResponseAudioTranscriptDone',
      ),
      event: {
        event_id: 'event_4748',
        type: 'response.output_audio_transcript.done',
        response_id: 'resp_001',
        item_id: 'msg_008',
        output_index: 0,
        content_index: 0,
        transcript: 'Hello, how can I assist you today?',
      },
    },
    responseDone: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'response.done', 'RealtimeServerEventResponseDone'),
      event: documentedResponseDone,
    },
    /**
     * The reference publishes no failed response.done. This is its completed example with nothing output
     * and `status`/`status_details` as its RealtimeResponse schema describes a failure ("error: … the
     * error that caused the response to fail, populated when the status is failed", with `type` and
     * `code`), the values those of OpenAI's rate-limit error (error-codes guide).
     */
    responseDoneFailed: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'response.done', 'RealtimeResponse.status_details'),
      event: {
        ...documentedResponseDone,
        response: {
          ...documentedResponseDone.response,
          status: 'failed',
          status_details: { type: 'failed', error: { type: 'tokens', code: 'rate_limit_exceeded' } },
          output: [],
        },
      },
    },
    rateLimitsUpdated: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'rate_limits.updated', 'RealtimeServerEventRateLimitsUpdated'),
      event: {
        event_id: 'event_5758',
        type: 'rate_limits.updated',
        rate_limits: [
          { name: 'requests', limit: 1000, remaining: 999, reset_seconds: 60 },
          { name: 'tokens', limit: 50000, remaining: 49950, reset_seconds: 60 },
        ],
      },
    },
    error: {
      source: realtimeSource(REALTIME_SERVER_EVENTS, 'error', 'RealtimeServerEventError'),
      event: {
        event_id: 'event_890',
        type: 'error',
        error: {
          type: 'invalid_request_error',
          code: 'invalid_event',
          message: "The 'type' field is missing.",
          param: null,
          event_id: 'event_567',
        },
      },
    },
  },
} as const;

export const openai = {
  realtime: openaiRealtime,
  speech: {
    source: 'https://platform.openai.com/docs/api-reference/audio/createSpeech',
    path: '/v1/audio/speech',
    request: { model: 'tts-1', input: 'The quick brown fox jumped over the lazy dog.', voice: 'alloy' },
  },
  requestFields: ['model', 'input', 'voice', 'instructions', 'response_format', 'speed', 'stream_format'],
  /** Both 429, told apart by `error.code` (https://platform.openai.com/docs/guides/error-codes/api-errors). */
  rateLimited: {
    source: 'https://platform.openai.com/docs/guides/error-codes/api-errors',
    status: 429,
    body: {
      error: {
        message: 'Rate limit reached for requests',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    },
  },
  insufficientQuota: {
    source: 'https://platform.openai.com/docs/guides/error-codes/api-errors',
    status: 429,
    body: {
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        param: null,
        code: 'insufficient_quota',
      },
    },
  },
} as const;

/**
 * The structure of a JSON value: the type of each field, recursively (arrays by their first item), so
 * two answers with different values but the same fields compare equal.
 */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [value.length === 0 ? 'empty' : shapeOf(value[0])];
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shapeOf(field)]));
  }
  return value === null ? 'null' : typeof value;
}

/**
 * Where `actual` lacks a field of `documented` or holds it with another type, recursively (arrays by
 * their first items, when both have one): an answer may carry more fields than a document shows, never
 * fewer or different ones.
 */
export function shapeMismatches(documented: unknown, actual: unknown, path = '$'): string[] {
  const expected = kindOf(documented);
  const got = kindOf(actual);
  if (expected !== got) return [`${path}: documented ${expected}, got ${got}`];
  if (Array.isArray(documented) && Array.isArray(actual)) {
    if (documented.length === 0 || actual.length === 0) return [];
    return shapeMismatches(documented[0], actual[0], `${path}[0]`);
  }
  if (expected !== 'object') return [];
  const fields = actual as Record<string, unknown>;
  return Object.entries(documented as Record<string, unknown>).flatMap(([key, field]) =>
    key in fields ? shapeMismatches(field, fields[key], `${path}.${key}`) : [`${path}.${key}: missing`],
  );
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
