import { ERROR_MESSAGES, type ErrorBody } from '@mediagen/shared';
import { requireAppConfig } from '@/config/app-config';
import { getIdToken } from './auth-client';

/** An API refusal in the contract's shape `{ error: { code, message } }`, with its HTTP status. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  /** `none`: sent without a token, for the routes a visitor may call (the support form). */
  auth?: 'required' | 'none';
}

function apiUrl(path: string): string {
  return `${requireAppConfig().apiUrl}${path}`;
}

/** Calls the API as the signed-in user; every failure becomes an ApiRequestError with a message to show. */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== 'none') {
    const token = await getIdToken();
    if (token === null) throw new ApiRequestError(401, 'UNAUTHENTICATED', ERROR_MESSAGES.UNAUTHENTICATED);
    headers.Authorization = `Bearer ${token}`;
  }
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? null : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiRequestError(0, 'NOT_READY', ERROR_MESSAGES.NOT_READY);
  }
  if (!response.ok) throw await toApiRequestError(response);
  // 204: the route answers nothing (a delete), and T is void.
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

async function toApiRequestError(response: Response): Promise<ApiRequestError> {
  const body = (await response.json().catch(() => null)) as Partial<ErrorBody> | null;
  const error = body?.error;
  if (error?.code !== undefined && error.message !== undefined) {
    return new ApiRequestError(response.status, error.code, error.message);
  }
  return new ApiRequestError(response.status, 'INTERNAL', ERROR_MESSAGES.INTERNAL);
}
