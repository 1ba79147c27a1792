import type { OperationName } from '../contracts/provider/operation-call.js';

/**
 * Whether an operation run through the pipeline counts against the rate limits. The asset
 * library's operations do not: they cost nothing, they manage the caller's library, and an
 * asset is polled until it is active, like a video task, whose polls never reach the
 * pipeline's limits either.
 */
export function countsTowardRateLimits(operation: OperationName): boolean {
  return !operation.startsWith('assets.');
}
