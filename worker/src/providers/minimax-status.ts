/**
 * What a non-zero MiniMax `base_resp.status_code` means for us. MiniMax answers its errors with HTTP 200
 * and the code in the body (https://platform.minimax.io/docs/api-reference/errorcode):
 * - `retry_later`: 1000 unknown error, 1001 request timeout, 1013 internal service error, 1024 internal
 *   error, 1033 system error ("Please retry your requests later");
 * - `rate_limited`: 1002;
 * - `auth`: 1004 not authorized, 2049 invalid api key (also what a key used on the other region's host
 *   gets);
 * - `sensitive`: 1026 input / 1027 output new_sensitive (the content was refused);
 * - `refused`: 1008 insufficient balance, 2013 invalid params, and any code not listed here: final.
 */
export type MiniMaxCodeMeaning = 'retry_later' | 'rate_limited' | 'auth' | 'sensitive' | 'refused';

const MEANINGS: ReadonlyMap<number, MiniMaxCodeMeaning> = new Map([
  [1000, 'retry_later'],
  [1001, 'retry_later'],
  [1013, 'retry_later'],
  [1024, 'retry_later'],
  [1033, 'retry_later'],
  [1002, 'rate_limited'],
  [1004, 'auth'],
  [2049, 'auth'],
  [1026, 'sensitive'],
  [1027, 'sensitive'],
]);

export function miniMaxCodeMeaning(code: number): MiniMaxCodeMeaning {
  return MEANINGS.get(code) ?? 'refused';
}

export interface MiniMaxStatus {
  code: number;
  message: string;
}

/** The body's `base_resp` when it reports an error; undefined for success or a body without one. */
export function miniMaxError(body: unknown): MiniMaxStatus | undefined {
  const status = (body as { base_resp?: { status_code?: unknown; status_msg?: unknown } } | undefined)?.base_resp;
  if (typeof status?.status_code !== 'number' || status.status_code === 0) return undefined;
  const message = typeof status.status_msg === 'string' && status.status_msg !== '' ? status.status_msg : '';
  return { code: status.status_code, message: message || `code ${status.status_code}` };
}
