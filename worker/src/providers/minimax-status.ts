/**
 * What a non-zero MiniMax `base_resp.status_code` means for us. MiniMax answers its errors with HTTP 200
 * and the code in the body. The codes and their advice are MiniMax's error code table
 * (https://platform.minimax.io/docs/api-reference/errorcode); 1013 and "1039 TPM limit triggered" are
 * listed on the file retrieval page (https://platform.minimax.io/docs/api-reference/video-generation-download).
 * - `retry_later` ("Please retry your requests later"): 1000 unknown error, 1001 request timeout, 1013
 *   internal service error, 1024 internal error, 1033 system error;
 * - `rate_limited` (a limit on how fast or how much, as a 429 is): 1002 rate limit, 1039 token (TPM)
 *   limit, 1041 conn limit, 2045 rate growth limit ("avoid sudden increases": a pause is what it asks);
 * - `usage_limit`: 2056 usage limit exceeded, "wait for the resource release in the next 5-hour window";
 * - `balance`: 1008 insufficient balance;
 * - `auth`: 1004 not authorized, 2049 invalid api key (also what a key used on the other region's host
 *   gets);
 * - `sensitive`: 1026 input / 1027 output new_sensitive (the content was refused);
 * - `bad_request`: 1042 invisible character ratio limit, 2013 invalid params, and any code not listed
 *   here (the voice cloning codes 1043, 1044, 20132, 2037, 2039, 2042, 2048 among them).
 */
export type MiniMaxCodeMeaning =
  'retry_later' | 'rate_limited' | 'usage_limit' | 'balance' | 'auth' | 'sensitive' | 'bad_request';

const MEANINGS: ReadonlyMap<number, MiniMaxCodeMeaning> = new Map([
  [1000, 'retry_later'],
  [1001, 'retry_later'],
  [1013, 'retry_later'],
  [1024, 'retry_later'],
  [1033, 'retry_later'],
  [1002, 'rate_limited'],
  [1039, 'rate_limited'],
  [1041, 'rate_limited'],
  [2045, 'rate_limited'],
  [2056, 'usage_limit'],
  [1008, 'balance'],
  [1004, 'auth'],
  [2049, 'auth'],
  [1026, 'sensitive'],
  [1027, 'sensitive'],
]);

export function miniMaxCodeMeaning(code: number): MiniMaxCodeMeaning {
  return MEANINGS.get(code) ?? 'bad_request';
}

/**
 * What a call does with a code:
 * - `retry`: another attempt (a start no task came of costs nothing);
 * - `pause`: the queue waits (ProviderBusyError), no attempt used;
 * - `ask_again`: the task or file is already paid for, so the job asks again later, no attempt used;
 * - `auth`, `sensitive`: the job ends with the spec's message for them;
 * - `refuse`: the job ends, saying why.
 */
export type MiniMaxCodeRule = 'retry' | 'pause' | 'ask_again' | 'auth' | 'sensitive' | 'refuse';

/** `start`: no paid work yet. `paid`: polling a task or fetching its file, both already paid for. */
export type MiniMaxCallPhase = 'start' | 'paid';

const RULES: Record<MiniMaxCodeMeaning, Record<MiniMaxCallPhase, MiniMaxCodeRule>> = {
  retry_later: { start: 'retry', paid: 'ask_again' },
  rate_limited: { start: 'pause', paid: 'pause' },
  // The next 5-hour window is past any job's deadline: a start is refused (its token comes back), while a
  // task already rendering is asked about again, as asking costs nothing and the video is paid for.
  usage_limit: { start: 'refuse', paid: 'ask_again' },
  balance: { start: 'refuse', paid: 'ask_again' },
  auth: { start: 'auth', paid: 'auth' },
  sensitive: { start: 'sensitive', paid: 'sensitive' },
  bad_request: { start: 'refuse', paid: 'refuse' },
};

export function miniMaxCodeRule(code: number, phase: MiniMaxCallPhase): MiniMaxCodeRule {
  return RULES[miniMaxCodeMeaning(code)][phase];
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
