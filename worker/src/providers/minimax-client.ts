import { VIDEO_TIMEOUTS_MS, type ErrorCode, type MiniMaxVideoBody } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { DownloadRefused, type Download } from './guarded-download';
import { NetworkError, callJson, messageFrom, type JsonResponse } from './http';
import { miniMaxCodeMeaning, miniMaxError, type MiniMaxStatus } from './minimax-status';
import { ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

export interface MiniMaxConfig {
  /** https://api.minimax.io/v1 for global keys, https://api.minimaxi.com/v1 for mainland keys. */
  baseUrl: string;
  apiKey: string;
  /** Older accounts' file retrieval took a GroupId; sent only when one is configured. */
  groupId?: string | undefined;
  timeouts?: Partial<VideoTimeouts>;
  /** Fetches the file a retrieve answer points at, under the download policy (hosts, addresses, size, time). */
  download(url: string, signal?: AbortSignal): Promise<Download>;
}

type VideoTimeouts = Record<keyof typeof VIDEO_TIMEOUTS_MS, number>;

export type VideoTaskStatus = { status: string; fileId: string | undefined };

const signalOption = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { signal });

/** MiniMax ids are documented as strings, but some answers carry them as numbers. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function describeCode(status: MiniMaxStatus): string {
  return `${status.message} (${status.code})`;
}

function rateLimited(response: JsonResponse, why: string): ProviderBusyError {
  return new ProviderBusyError('minimax', 'rate_limited', parseRetryAfter(response.headers['retry-after']), why);
}

/**
 * The parts of a MiniMax answer every call treats alike: HTTP 429 and code 1002 slow the queue down,
 * authentication codes end the job with the spec's message, sensitive content is refused for good.
 * Returns the remaining error code, if any, for the call to judge.
 */
function commonFailure(response: JsonResponse): MiniMaxStatus | undefined {
  if (response.status === 429) throw rateLimited(response, 'HTTP 429');
  const status = miniMaxError(response.json);
  if (status === undefined) return undefined;
  switch (miniMaxCodeMeaning(status.code)) {
    case 'rate_limited':
      throw rateLimited(response, `code ${status.code}`);
    case 'auth':
      // MiniMax's own code and words are the operators' (failure-report.ts).
      throw GenerationError.of('VIDEO_AUTH_FAILED', {
        detail: ` (${describeCode(status)})`,
        retryable: false,
        outcome: 'http_4xx',
      });
    case 'sensitive':
      throw GenerationError.of('VIDEO_FAILED', { retryable: false, outcome: 'content_refused' });
    case 'retry_later':
    case 'refused':
      return status;
  }
}

/** A remaining code as the call's own catalogue error: "retry later" codes are worth another attempt. */
function codeFailure(code: ErrorCode, status: MiniMaxStatus): GenerationError {
  const retryable = miniMaxCodeMeaning(status.code) === 'retry_later';
  return GenerationError.of(code, {
    detail: describeCode(status),
    retryable,
    outcome: retryable ? 'http_5xx' : 'http_4xx',
  });
}

/**
 * MiniMax video generation: create a task, query it, retrieve its file, download it
 * (https://platform.minimax.io/docs/api-reference/video-generation-intro). Errors come as HTTP 200 with
 * a non-zero `base_resp.status_code` (see minimax-status.ts).
 */
export class MiniMaxClient {
  private readonly timeouts: VideoTimeouts;

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
      if (!(error instanceof NetworkError)) throw error;
      // MiniMax has no way to look a task up but by the id this answer would have carried: a start
      // with no answer may still have created (and charged for) a task, so it is not tried again.
      if (error.outcome === 'timeout') {
        throw GenerationError.of('VIDEO_START_FAILED', {
          detail: `no answer within ${this.timeouts.start / 1000} s; not retried, as MiniMax may have started a paid task`,
          retryable: false,
          outcome: 'timeout',
        });
      }
      throw GenerationError.of('VIDEO_START_FAILED', {
        detail: error.message,
        retryable: true,
        outcome: error.outcome,
      });
    });
    const status = commonFailure(response);
    if (status !== undefined) throw codeFailure('VIDEO_START_FAILED', status);
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_START_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: isRetryableStatus(response.status),
        outcome: outcomeOfStatus(response.status),
      });
    }
    const taskId = idOf((response.json as { task_id?: unknown } | undefined)?.task_id);
    if (taskId === undefined) {
      throw GenerationError.of('VIDEO_INIT_FAILED', { retryable: false, outcome: 'malformed' });
    }
    return taskId;
  }

  /**
   * Transport failures, 5xx and MiniMax's "retry later" codes surface as NetworkError: the task is
   * already paid for, so the poller waits and asks again (spec §8).
   */
  async queryTask(taskId: string, signal?: AbortSignal): Promise<VideoTaskStatus> {
    const url = `${this.config.baseUrl}/query/video_generation?task_id=${encodeURIComponent(taskId)}`;
    const response = await callJson(url, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.status,
      ...signalOption(signal),
    });
    if (response.status >= 500) throw new NetworkError(`HTTP ${response.status}`, 'http_5xx');
    const status = commonFailure(response);
    if (status !== undefined) {
      if (miniMaxCodeMeaning(status.code) === 'retry_later') throw new NetworkError(describeCode(status), 'http_5xx');
      throw codeFailure('VIDEO_POLL_FAILED', status);
    }
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_POLL_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: false,
        outcome: outcomeOfStatus(response.status),
      });
    }
    const body = response.json as { status?: unknown; file_id?: unknown } | undefined;
    if (body === undefined || typeof body.status !== 'string') {
      throw GenerationError.of('VIDEO_INVALID_RESPONSE', { retryable: false, outcome: 'malformed' });
    }
    return { status: body.status, fileId: idOf(body.file_id) };
  }

  async retrieveDownloadUrl(fileId: string, signal?: AbortSignal): Promise<string> {
    const query = new URLSearchParams({ file_id: fileId });
    if (this.config.groupId !== undefined) query.set('GroupId', this.config.groupId);
    const response = await callJson(`${this.config.baseUrl}/files/retrieve?${query}`, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.file,
      ...signalOption(signal),
    }).catch((error: unknown) => {
      if (!(error instanceof NetworkError)) throw error;
      throw GenerationError.of('VIDEO_URL_FAILED', { detail: error.message, retryable: true, outcome: error.outcome });
    });
    const status = commonFailure(response);
    if (status !== undefined) throw codeFailure('VIDEO_URL_FAILED', status);
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
    const response = await this.config.download(downloadUrl, signal).catch((error: unknown) => {
      // Where the file is, not whether it can be fetched, is wrong: asking again would point there again.
      if (error instanceof DownloadRefused) {
        throw GenerationError.of('VIDEO_URL_FAILED', { detail: error.message, retryable: false, outcome: 'malformed' });
      }
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
