import { VIDEO_TIMEOUTS_MS, type MiniMaxVideoBody } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { NetworkError, callJson, downloadBytes, messageFrom, type JsonResponse } from './http';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

export interface MiniMaxConfig {
  /** e.g. https://api.minimax.chat/v1 */
  baseUrl: string;
  apiKey: string;
  groupId: string;
  timeouts?: Partial<typeof VIDEO_TIMEOUTS_MS>;
  /** The video file itself can be large; it gets its own budget. */
  downloadTimeoutMs?: number;
}

interface BaseResp {
  status_code?: number;
  status_msg?: string;
}

export type VideoTaskStatus = { status: string; fileId: string | undefined };

/** MiniMax rate-limit code: worth another try later, unlike invalid parameters or balance errors. */
const MINIMAX_RATE_LIMITED = 1002;

function baseResp(response: JsonResponse): BaseResp | undefined {
  const body = response.json as { base_resp?: BaseResp } | undefined;
  return body?.base_resp;
}

/** HTTP 429, or MiniMax's own rate-limit code inside an HTTP 200: slow the queue down, keep the attempt. */
function throwIfRateLimited(response: JsonResponse): void {
  if (response.status === 429 || baseResp(response)?.status_code === MINIMAX_RATE_LIMITED) {
    throw new ProviderBusyError(
      'minimax',
      'rate_limited',
      parseRetryAfter(response.headers['retry-after']),
      response.status === 429 ? 'HTTP 429' : `code ${MINIMAX_RATE_LIMITED}`,
    );
  }
}

const signalOption = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** MiniMax video generation: start a task, query its status, retrieve the file (spec §7). */
export class MiniMaxClient {
  private readonly timeouts: typeof VIDEO_TIMEOUTS_MS;

  constructor(private readonly config: MiniMaxConfig) {
    this.timeouts = { ...VIDEO_TIMEOUTS_MS, ...config.timeouts };
  }

  private get authorization() {
    return { authorization: `Bearer ${this.config.apiKey}` };
  }

  async startTask(body: MiniMaxVideoBody, signal?: AbortSignal): Promise<string> {
    const response = await callJson(`${this.config.baseUrl}/video_generation`, {
      method: 'POST',
      headers: this.authorization,
      body,
      timeoutMs: this.timeouts.start,
      ...signalOption(signal),
    }).catch((error: unknown) => {
      if (error instanceof NetworkError) {
        throw GenerationError.of('VIDEO_START_FAILED', {
          detail: error.message,
          retryable: true,
          outcome: error.outcome,
        });
      }
      throw error;
    });
    throwIfRateLimited(response);
    if (response.status === 401)
      throw GenerationError.of('VIDEO_AUTH_FAILED', { retryable: false, outcome: 'http_4xx' });
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_START_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: isRetryableStatus(response.status),
        outcome: outcomeOfStatus(response.status),
      });
    }
    const status = baseResp(response);
    if (status?.status_code !== undefined && status.status_code !== 0) {
      throw GenerationError.of('VIDEO_START_FAILED', {
        detail: status.status_msg ?? `code ${status.status_code}`,
        retryable: false,
        outcome: 'http_4xx',
      });
    }
    const taskId = (response.json as { task_id?: unknown } | undefined)?.task_id;
    if (typeof taskId !== 'string' || taskId === '') {
      throw GenerationError.of('VIDEO_INIT_FAILED', { retryable: false, outcome: 'malformed' });
    }
    return taskId;
  }

  /** Network errors and 5xx surface as NetworkError: the poller waits and asks again. */
  async queryTask(taskId: string, signal?: AbortSignal): Promise<VideoTaskStatus> {
    const url = `${this.config.baseUrl}/query/video_generation?task_id=${encodeURIComponent(taskId)}`;
    const response = await callJson(url, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.status,
      ...signalOption(signal),
    });
    throwIfRateLimited(response);
    if (response.status >= 500) throw new NetworkError(`HTTP ${response.status}`, 'http_5xx');
    if (response.status === 401)
      throw GenerationError.of('VIDEO_AUTH_FAILED', { retryable: false, outcome: 'http_4xx' });
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_POLL_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: false,
        outcome: outcomeOfStatus(response.status),
      });
    }
    const body = response.json as { status?: unknown; file_id?: unknown } | undefined;
    const resp = baseResp(response);
    if (resp?.status_code !== undefined && resp.status_code !== 0) {
      throw GenerationError.of('VIDEO_POLL_FAILED', {
        detail: resp.status_msg ?? `code ${resp.status_code}`,
        retryable: false,
        outcome: 'http_4xx',
      });
    }
    if (body === undefined || typeof body.status !== 'string') {
      throw GenerationError.of('VIDEO_INVALID_RESPONSE', { retryable: false, outcome: 'malformed' });
    }
    const fileId = typeof body.file_id === 'string' && body.file_id !== '' ? body.file_id : undefined;
    return { status: body.status, fileId };
  }

  async retrieveDownloadUrl(fileId: string, signal?: AbortSignal): Promise<string> {
    const url =
      `${this.config.baseUrl}/files/retrieve?GroupId=${encodeURIComponent(this.config.groupId)}` +
      `&file_id=${encodeURIComponent(fileId)}`;
    const response = await callJson(url, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.file,
      ...signalOption(signal),
    }).catch((error: unknown) => {
      if (error instanceof NetworkError) {
        throw GenerationError.of('VIDEO_URL_FAILED', {
          detail: error.message,
          retryable: true,
          outcome: error.outcome,
        });
      }
      throw error;
    });
    throwIfRateLimited(response);
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_URL_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: isRetryableStatus(response.status),
        outcome: outcomeOfStatus(response.status),
      });
    }
    if (response.json === undefined) {
      throw GenerationError.of('VIDEO_DOWNLOAD_URL_FAILED', { retryable: true, outcome: 'malformed' });
    }
    const downloadUrl = (response.json as { file?: { download_url?: unknown } }).file?.download_url;
    if (typeof downloadUrl !== 'string' || downloadUrl === '') {
      throw GenerationError.of('VIDEO_NO_DOWNLOAD_URL', { retryable: false, outcome: 'malformed' });
    }
    return downloadUrl;
  }

  async downloadVideo(downloadUrl: string, signal?: AbortSignal): Promise<{ bytes: Uint8Array; mimeType: string }> {
    const timeoutMs = this.config.downloadTimeoutMs ?? 5 * 60_000;
    const response = await downloadBytes(downloadUrl, timeoutMs, signal).catch((error: unknown) => {
      if (!(error instanceof NetworkError)) throw error;
      throw GenerationError.of('VIDEO_URL_FAILED', { detail: error.message, retryable: true, outcome: error.outcome });
    });
    if (response.status === 429) {
      throw new ProviderBusyError(
        'minimax',
        'rate_limited',
        parseRetryAfter(response.headers['retry-after']),
        'HTTP 429',
      );
    }
    if (response.status < 200 || response.status >= 300 || response.bytes.byteLength === 0) {
      throw GenerationError.of('VIDEO_URL_FAILED', {
        detail: `HTTP ${response.status}`,
        retryable: isRetryableStatus(response.status),
        outcome: response.status >= 200 && response.status < 300 ? 'malformed' : outcomeOfStatus(response.status),
      });
    }
    return { bytes: response.bytes, mimeType: response.contentType ?? 'video/mp4' };
  }
}
