import type { FaultReplies } from '../faults/providerGate';

/** MiniMax status codes used here (from its error code table). */
export const MINIMAX_CODES = {
  success: 0,
  rateLimited: 1002,
  authFailed: 1004,
  internalError: 1013,
  invalidParams: 2013,
} as const;

export function baseResp(statusCode: number, statusMsg: string) {
  return { base_resp: { status_code: statusCode, status_msg: statusMsg } };
}

export const SUCCESS = baseResp(MINIMAX_CODES.success, 'success');

/** MiniMax reports bad input with HTTP 200 and a non-zero status_code, not with a 4xx. */
export const invalidParams = (detail: string) => baseResp(MINIMAX_CODES.invalidParams, `invalid params, ${detail}`);

export const authFailed = () =>
  baseResp(MINIMAX_CODES.authFailed, 'login fail: Please carefully check the API secret key and ensure it is correct');

export const videoFaultReplies: FaultReplies = {
  serverError: () => baseResp(MINIMAX_CODES.internalError, 'internal service error'),
  rateLimited: () => baseResp(MINIMAX_CODES.rateLimited, 'rate limit exceeded, please retry later'),
  malformed: { contentType: 'application/json', body: '{"task_id":"' },
};

export const downloadFaultReplies: FaultReplies = {
  ...videoFaultReplies,
  malformed: { contentType: 'video/mp4', body: 'this is not an mp4 file' },
};
