/** MiniMax's published examples (documented-examples.ts says how they are used). */
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
  /**
   * MiniMax-Hailuo-2.3 by the reference's `duration` and `resolution` descriptions: 6 or 10 s at 768P (its
   * default), 6 s only at 1080P; any other pair is `invalid params` (2013). The requests are the
   * reference's example with the model and each pair it documents.
   */
  hailuo23: {
    source: 'https://platform.minimax.io/docs/api-reference/video-generation-t2v',
    model: 'MiniMax-Hailuo-2.3',
    prompt: 'A man picks up a book [Pedestal up], then reads [Static shot].',
    renders: [
      { resolution: '768P', duration: 6 },
      { resolution: '768P', duration: 10 },
      { resolution: '1080P', duration: 6 },
    ],
    refused: [
      { resolution: '1080P', duration: 10 },
      { resolution: '720P', duration: 6 },
      { resolution: '512P', duration: 6 },
    ],
    invalidParamsCode: 2013,
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
