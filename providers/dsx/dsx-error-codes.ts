import { isArkSensitiveContent } from '../../core/index.js';

/**
 * The numeric `error.code` of a failed task (the task view's code is an integer; Ark's own
 * code name goes in `error.type`): 400 for a moderation failure or a refused parameter, 429
 * for a quota or rate limit, 504 for a timeout, 500 for anything else (`InternalServiceError`).
 */
export function dsxFailureStatus(code: string | null | undefined): number {
  if (typeof code !== 'string' || code === '') return 500;
  if (isArkSensitiveContent(code) || /^(InvalidParameter|MissingParameter|InvalidArgument)/.test(code)) return 400;
  if (/RateLimit|QuotaExceeded|TooManyRequests/.test(code)) return 429;
  if (/Timeout/i.test(code)) return 504;
  return 500;
}
