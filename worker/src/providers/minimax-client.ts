import { VIDEO_TIMEOUTS_MS, type ErrorCode, type MiniMaxVideoBody } from '@mediagen/shared';
import { GenerationError, isRetryableStatus } from '../generation-error';
import { DownloadRefused, type Download } from './guarded-download';
import { NetworkError, callJson, messageFrom, type JsonResponse } from './http';
import {
  miniMaxCodeMeaning,
  miniMaxCodeRule,
  miniMaxError,
  type MiniMaxCallPhase,
  type MiniMaxStatus,
} from './minimax-status';
import { AskAgainLater, ProviderBusyError, outcomeOfStatus, parseRetryAfter } from './provider-calls';

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

/** MiniMax renders MP4 (its file retrieval answers `output.mp4`); it is what every video job asks for. */
const VIDEO_MIME_TYPE = 'video/mp4';

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

/** Where the HTTP 200 the codes come in leaves a call that can no longer read its answer. */
function askAgainOnTransport(error: unknown): never {
  if (error instanceof NetworkError) throw new AskAgainLater(error.message, error.outcome);
  throw error;
}

/**
 * The answer's HTTP 429 or `base_resp` code, judged by its rule for the call's phase (minimax-status.ts):
 * throws what the job does about it, or returns when the answer carries neither.
 */
function judgeCode(response: JsonResponse, phase: MiniMaxCallPhase, failure: ErrorCode): void {
  if (response.status === 429) throw rateLimited(response, 'HTTP 429');
  const status = miniMaxError(response.json);
  if (status === undefined) return;
  const rule = miniMaxCodeRule(status.code, phase);
  const retryLater = miniMaxCodeMeaning(status.code) === 'retry_later';
  switch (rule) {
    case 'pause':
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
    case 'ask_again':
      throw new AskAgainLater(describeCode(status), retryLater ? 'http_5xx' : 'http_4xx');
    case 'retry':
    case 'refuse':
      throw GenerationError.of(failure, {
        detail: describeCode(status),
        retryable: rule === 'retry',
        outcome: rule === 'retry' ? 'http_5xx' : 'http_4xx',
      });
  }
}

/** An MP4 file opens with its `ftyp` box: the type field sits at bytes 4..8 (ISO/IEC 14496-12 §4.3). */
function isMp4(bytes: Uint8Array): boolean {
  return bytes.byteLength >= 8 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp';
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
    judgeCode(response, 'start', 'VIDEO_START_FAILED');
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
   * The task is already paid for (spec §8): transport failures, 5xx, MiniMax's "retry later" and limit
   * codes, and an answer that does not parse all surface as AskAgainLater, and the poller asks again.
   */
  async queryTask(taskId: string, signal?: AbortSignal): Promise<VideoTaskStatus> {
    const url = `${this.config.baseUrl}/query/video_generation?task_id=${encodeURIComponent(taskId)}`;
    const response = await callJson(url, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.status,
      ...signalOption(signal),
    }).catch(askAgainOnTransport);
    if (response.status >= 500) throw new AskAgainLater(`HTTP ${response.status}`, 'http_5xx');
    judgeCode(response, 'paid', 'VIDEO_POLL_FAILED');
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_POLL_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: false,
        outcome: outcomeOfStatus(response.status),
      });
    }
    const body = response.json as { status?: unknown; file_id?: unknown } | undefined;
    if (body === undefined || typeof body.status !== 'string') {
      throw new AskAgainLater('the status answer is not a task status', 'malformed');
    }
    return { status: body.status, fileId: idOf(body.file_id) };
  }

  /** The file is a paid task's result: anything but a final refusal is asked again (AskAgainLater). */
  async retrieveDownloadUrl(fileId: string, signal?: AbortSignal): Promise<string> {
    const query = new URLSearchParams({ file_id: fileId });
    if (this.config.groupId !== undefined) query.set('GroupId', this.config.groupId);
    const response = await callJson(`${this.config.baseUrl}/files/retrieve?${query}`, {
      method: 'GET',
      headers: this.authorization,
      timeoutMs: this.timeouts.file,
      ...signalOption(signal),
    }).catch(askAgainOnTransport);
    if (response.status >= 500) throw new AskAgainLater(`HTTP ${response.status}`, 'http_5xx');
    judgeCode(response, 'paid', 'VIDEO_URL_FAILED');
    if (response.status < 200 || response.status >= 300) {
      throw GenerationError.of('VIDEO_URL_FAILED', {
        detail: messageFrom(response.json, `HTTP ${response.status}`),
        retryable: false,
        outcome: outcomeOfStatus(response.status),
      });
    }
    if (response.json === undefined) throw new AskAgainLater('the file answer is not JSON', 'malformed');
    const downloadUrl = (response.json as { file?: { download_url?: unknown } }).file?.download_url;
    if (typeof downloadUrl !== 'string' || downloadUrl === '') {
      throw GenerationError.of('VIDEO_NO_DOWNLOAD_URL', { retryable: false, outcome: 'malformed' });
    }
    return downloadUrl;
  }

  /**
   * Downloads the file a retrieve answer points at. A download that fails on the way is asked again from
   * retrieval (a fresh link: MiniMax's are valid for an hour). What is stored is what was asked for, an
   * MP4, whatever Content-Type the CDN sends (object storage often says application/octet-stream).
   */
  async downloadVideo(downloadUrl: string, signal?: AbortSignal): Promise<{ bytes: Uint8Array; mimeType: string }> {
    const response = await this.config.download(downloadUrl, signal).catch((error: unknown) => {
      // Where the file is, not whether it can be fetched, is wrong: asking again would point there again.
      if (error instanceof DownloadRefused) {
        throw GenerationError.of('VIDEO_URL_FAILED', { detail: error.message, retryable: false, outcome: 'malformed' });
      }
      return askAgainOnTransport(error);
    });
    if (response.status === 429) {
      throw new ProviderBusyError(
        'minimax',
        'rate_limited',
        parseRetryAfter(response.headers['retry-after']),
        'HTTP 429',
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw new AskAgainLater(`HTTP ${response.status}`, outcomeOfStatus(response.status));
    }
    if (!isMp4(response.bytes)) {
      throw GenerationError.of('VIDEO_URL_FAILED', {
        detail: `the file is not an MP4 video (${response.bytes.byteLength} bytes, ${response.contentType ?? 'no content type'})`,
        retryable: true,
        outcome: 'malformed',
      });
    }
    return { bytes: response.bytes, mimeType: VIDEO_MIME_TYPE };
  }
}
