import { randomUUID } from 'node:crypto';

// Codes and messages from DashScope's error-code table (upstreams.md §4.1).
const errorKinds: Record<number, { code: string; message: string }> = {
  400: { code: 'InvalidParameter', message: 'Required parameter(s) missing or invalid, please check the request parameters.' },
  401: { code: 'InvalidApiKey', message: 'Invalid API-key provided.' },
  403: { code: 'AccessDenied', message: 'Access denied.' },
  404: { code: 'ModelNotFound', message: 'Model can not be found.' },
  408: { code: 'RequestTimeOut', message: 'Request timed out, please try again later.' },
  429: { code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' },
  503: { code: 'ModelUnavailable', message: 'Model is unavailable, please try again later.' },
};

const serverError = { code: 'InternalError', message: 'An internal error has occured, please try again later or contact service support.' };

/** DashScope's error body `{request_id, code, message}` (upstreams.md §4.1) for `status`; `message` and `code` replace the defaults. */
export function dashScopeErrorBody(status: number, message?: string, code?: string): { request_id: string; code: string; message: string } {
  const kind = errorKinds[status] ?? serverError;
  return { request_id: randomUUID(), code: code ?? kind.code, message: message ?? kind.message };
}

/** The 401 for a request without a key, as recorded (fixture dashscope-video-task-lifecycle.json, `create_error`). */
export const missingApiKeyBody = () => dashScopeErrorBody(401, 'No API-key provided.');

/** The moderation refusals, all HTTP 400. */
export const blockedBodies = {
  input: () => dashScopeErrorBody(400, 'Input data may contain inappropriate content.', 'DataInspectionFailed'),
  output: () => dashScopeErrorBody(400, 'Output data may contain inappropriate content.', 'DataInspectionFailed'),
  ip: () => dashScopeErrorBody(400, 'Input data is suspected of being involved in IP infringement.', 'IPInfringementSuspect'),
} as const;
