import { minimax } from '../contract/minimax-examples';
import type { FaultReplies } from '../faults/providerGate';

/**
 * MiniMax's error codes and their messages (https://platform.minimax.io/docs/api-reference/errorcode).
 * 1013 is not in that table; the file retrieval page lists it for internal service errors, and calls
 * 1039 "TPM limit triggered" there
 * (https://platform.minimax.io/docs/api-reference/video-generation-download).
 */
export const MINIMAX_MESSAGES: Readonly<Record<number, string>> = {
  ...minimax.errorCodes.messages,
  1013: 'internal service error',
};

export function baseResp(statusCode: number, statusMsg: string) {
  return { base_resp: { status_code: statusCode, status_msg: statusMsg } };
}

export const SUCCESS = baseResp(0, 'success');

/** Any MiniMax error as it really comes: HTTP 200 with the code in `base_resp`. */
export const codeError = (code: number) => baseResp(code, MINIMAX_MESSAGES[code] ?? `error ${code}`);

/** MiniMax reports bad input with HTTP 200 and a non-zero status_code, not with a 4xx. */
export const invalidParams = (detail: string) => baseResp(2013, `invalid params, ${detail}`);

export const authFailed = () =>
  baseResp(1004, 'login fail: Please carefully check the API secret key and ensure it is correct');

export const videoFaultReplies: FaultReplies = {
  serverError: () => codeError(1013),
  rateLimited: () => codeError(1002),
  malformed: { contentType: 'application/json', body: '{"task_id":"' },
  overLimit: () => ({ status: 200, body: codeError(1002) }),
  miniMaxCode: codeError,
};

export const downloadFaultReplies: FaultReplies = {
  serverError: videoFaultReplies.serverError,
  rateLimited: videoFaultReplies.rateLimited,
  malformed: { contentType: 'video/mp4', body: 'this is not an mp4 file' },
};
