import { request, errors as undiciErrors, type Dispatcher, type FormData } from 'undici';
import { annotateActiveSpan } from '@mediagen/core';

export interface JsonResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed body, or undefined when it was not JSON. */
  json: unknown;
  text: string;
}

/** A transport failure: no HTTP answer at all (refused, reset, dropped, timed out). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';

  constructor(
    message: string,
    /**
     * `unreachable`: no connection was made, so nothing was sent; `network`: the connection failed after
     * that; `timeout`: no answer within the call's budget; `http_5xx`: an answer the caller treats as none.
     */
    readonly outcome: 'network' | 'unreachable' | 'timeout' | 'http_5xx' = 'network',
  ) {
    super(message);
  }
}

export interface CallOptions {
  method: Dispatcher.HttpMethod;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Connection errors that happen before a single byte of the request is sent. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** Whether an error (or one it wraps) says the request never left this machine. */
export function neverConnected(error: unknown): boolean {
  if (error instanceof undiciErrors.ConnectTimeoutError) return true;
  for (let cause = error; cause instanceof Error; cause = (cause as { cause?: unknown }).cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NEVER_CONNECTED.has(code)) return true;
  }
  return false;
}

/**
 * The caller's signal (cancel, deadline, shutdown) carries the error the job should end with, so an
 * aborted call rethrows that reason untouched; anything else is a transport failure.
 */
export function toNetworkError(
  error: unknown,
  url: string,
  timeoutMs: number,
  caller: AbortSignal | undefined,
): unknown {
  if (caller?.aborted) return caller.reason;
  const timedOut =
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    (error instanceof Error && error.name === 'TimeoutError');
  if (timedOut) return new NetworkError(`timed out after ${timeoutMs} ms: ${url}`, 'timeout');
  const message = error instanceof Error ? error.message : String(error);
  return new NetworkError(message, neverConnected(error) ? 'unreachable' : 'network');
}

function withTimeout(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

/** One HTTP call with an explicit timeout; every provider client goes through here. */
export async function callJson(url: string, options: CallOptions): Promise<JsonResponse> {
  try {
    const response = await request(url, {
      method: options.method,
      headers: {
        accept: 'application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: withTimeout(options.signal, options.timeoutMs),
    });
    // On the provider call's span (provider-gateway.ts), beside its HTTP span's own.
    annotateActiveSpan({ 'http.response.status_code': response.statusCode });
    const text = await response.body.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, headers: response.headers, json, text };
  } catch (error) {
    throw toNetworkError(error, url, options.timeoutMs, options.signal);
  }
}

export interface BinaryResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
  /** Parsed body when the answer is JSON (an error, or base64 when JSON was asked for), else undefined. */
  json: unknown;
}

/**
 * One multipart/form-data POST whose answer may be a file (Stability's v2beta: `accept: image/*`), with an
 * explicit timeout; undici writes the form's boundary into its content type.
 */
export async function callForm(
  url: string,
  options: { headers: Record<string, string>; form: FormData; timeoutMs: number; signal?: AbortSignal },
): Promise<BinaryResponse> {
  try {
    const response = await request(url, {
      method: 'POST',
      headers: options.headers,
      body: options.form,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal: withTimeout(options.signal, options.timeoutMs),
    });
    annotateActiveSpan({ 'http.response.status_code': response.statusCode });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    const contentType = String(response.headers['content-type'] ?? '');
    let json: unknown;
    if (contentType.includes('json')) {
      try {
        json = JSON.parse(bytes.toString('utf8'));
      } catch {
        json = undefined;
      }
    }
    return { status: response.statusCode, headers: response.headers, bytes, json };
  } catch (error) {
    throw toNetworkError(error, url, options.timeoutMs, options.signal);
  }
}

export function messageFrom(body: unknown, fallback: string): string {
  if (body !== null && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    // Stability's v2beta errors: { id, name, errors: ["…"] }.
    if (Array.isArray(record.errors) && record.errors.every((item) => typeof item === 'string')) {
      return (record.errors as string[]).join('; ');
    }
    const nested = record.error ?? record.base_resp;
    if (nested !== null && typeof nested === 'object') {
      const inner = nested as Record<string, unknown>;
      if (typeof inner.message === 'string') return inner.message;
      if (typeof inner.status_msg === 'string') return inner.status_msg;
    }
  }
  return fallback;
}
