import type { RateCorrection, RateDraw, RateDrawResult } from './store-backend.js';

/**
 * A rate bucket as the in-process drivers keep it (the Redis driver keeps the same two numbers
 * in a hash and runs the same arithmetic in Lua).
 */
export interface RateBucketState {
  /**
   * When the bucket is full again, in milliseconds since the epoch: the generic cell rate
   * algorithm's "theoretical arrival time". A moment in the past means full.
   */
  fullAt: number;
  /** Milliseconds of refill given back by corrections, in all; it only grows. */
  returned: number;
}

/**
 * How far past the window a draw may end and still fit, in milliseconds. `fullAt` is a sum of
 * fractional intervals on a number near 1.7e12, which a double holds to about 2.4e-4 ms: without
 * the slack, the last of seven draws on a bucket of seven could be refused for a rounding error.
 */
export const rateFitToleranceMilliseconds = 0.01;

/** Throws unless every draw has whole, non-negative amounts that fit the bucket. */
export function assertRateDraws(draws: readonly RateDraw[]): void {
  for (const draw of draws) {
    assertWhole('capacity', draw.capacity, 1);
    assertWhole('windowMilliseconds', draw.windowMilliseconds, 1);
    assertWhole('amount', draw.amount, 0);
    if (draw.amount > draw.capacity) throw new RangeError(`amount ${draw.amount} exceeds the bucket's capacity ${draw.capacity}`);
  }
}

/** Throws unless the correction's numbers are whole and its mark is a pair of finite numbers. */
export function assertRateCorrection(correction: RateCorrection): void {
  assertWhole('capacity', correction.capacity, 1);
  assertWhole('windowMilliseconds', correction.windowMilliseconds, 1);
  assertWhole('delta', correction.delta, Number.MIN_SAFE_INTEGER);
  assertWhole('mark.amount', correction.mark.amount, 0);
  if (!Number.isFinite(correction.mark.fullAt) || !Number.isFinite(correction.mark.returned)) throw new RangeError('the mark must hold finite numbers');
}

function assertWhole(name: string, value: number, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) throw new RangeError(`${name} must be a whole number of at least ${minimum}, got ${value}`);
}

/**
 * Draws on `states` (in the order of `draws`, `undefined` for a bucket never drawn on) at
 * `now`, all or nothing: the buckets' next states when every draw fits, else the draw that
 * waits longest and how long. A draw of `amount` pushes `fullAt` by `amount × window /
 * capacity`, and fits when the bucket is then at most one window from full.
 */
export function drawOnBuckets(
  states: ReadonlyArray<RateBucketState | undefined>,
  draws: readonly RateDraw[],
  now: number,
): { result: RateDrawResult; next: RateBucketState[] } {
  const next: RateBucketState[] = [];
  let longest = 0;
  let refused = -1;
  draws.forEach((draw, index) => {
    const state = states[index];
    const fullAt = Math.max(state?.fullAt ?? now, now) + (draw.amount * draw.windowMilliseconds) / draw.capacity;
    const wait = fullAt - draw.windowMilliseconds - now;
    if (wait > rateFitToleranceMilliseconds && wait > longest) {
      longest = wait;
      refused = index;
    }
    next.push({ fullAt, returned: state?.returned ?? 0 });
  });
  if (refused >= 0) return { result: { granted: false, refused, retryInMilliseconds: longest }, next: [] };
  return { result: { granted: true, marks: next.map((state, index) => ({ amount: (draws[index] as RateDraw).amount, ...state })) }, next };
}

/**
 * The bucket after a correction at `now`, or `undefined` when nothing changes. Taking more
 * starts from now (a debt is never booked in the past). Giving back is bounded by what the
 * draw still holds: its part of the bucket ends at `mark.fullAt`, earlier only by what was
 * given back since (counted conservatively: every return since the draw is assumed to have
 * come from before it), and drains as time passes; nothing gives back more than the draw took.
 */
export function correctBucket(state: RateBucketState | undefined, correction: RateCorrection, now: number): RateBucketState | undefined {
  const interval = correction.windowMilliseconds / correction.capacity;
  if (correction.delta > 0) {
    return { fullAt: Math.max(state?.fullAt ?? now, now) + correction.delta * interval, returned: state?.returned ?? 0 };
  }
  // A bucket that is gone, or was started afresh since the draw, holds nothing of it.
  if (correction.delta === 0 || state === undefined || state.returned < correction.mark.returned) return undefined;
  const drawEnds = correction.mark.fullAt - (state.returned - correction.mark.returned);
  const credit = Math.min(Math.min(-correction.delta, correction.mark.amount) * interval, drawEnds - now);
  if (!(credit > 0)) return undefined;
  return { fullAt: state.fullAt - credit, returned: state.returned + credit };
}
