import t from 'tap';
import { correctBucket, drawOnBuckets, type RateBucketState } from '../../../core/store/rate-bucket.js';

const now = 1_763_712_345_678;
const minute = 60_000;

/** Draws one unit at a time at the same instant until the bucket refuses; returns how many fit. */
function drawsThatFit(capacity: number): number {
  let state: RateBucketState | undefined;
  for (let granted = 0; ; granted += 1) {
    const { result, next } = drawOnBuckets([state], [{ key: 'bucket', amount: 1, capacity, windowMilliseconds: minute }], now);
    if (!result.granted) return granted;
    state = next[0];
  }
}

t.test('a bucket grants exactly its capacity within one instant, whatever rounding its interval needs', async (t) => {
  for (const capacity of [1, 3, 7, 17, 19, 29, 31, 43, 60, 997]) t.equal(drawsThatFit(capacity), capacity, `capacity ${capacity}`);
});

t.test('a refused draw waits until the bucket has refilled what is missing', async (t) => {
  const full = drawOnBuckets([undefined], [{ key: 'bucket', amount: 1000, capacity: 1000, windowMilliseconds: minute }], now);
  const state = full.next[0];
  t.match(drawOnBuckets([state], [{ key: 'bucket', amount: 250, capacity: 1000, windowMilliseconds: minute }], now + 5_000).result, {
    granted: false,
    refused: 0,
    retryInMilliseconds: 10_000,
  });
});

t.test('a correction gives back only what the draw still holds in the bucket', async (t) => {
  const drawn = drawOnBuckets([undefined], [{ key: 'bucket', amount: 600, capacity: 1000, windowMilliseconds: minute }], now);
  if (!drawn.result.granted) return t.fail('the draw fits');
  const mark = drawn.result.marks[0]!;
  const giveBack = (at: number) => correctBucket(drawn.next[0], { key: 'bucket', delta: -500, capacity: 1000, windowMilliseconds: minute, mark }, at);
  t.same(giveBack(now), { fullAt: now + 6_000, returned: 30_000 }, 'at once: all 500');
  t.same(giveBack(now + 33_000), { fullAt: now + 33_000, returned: 3_000 }, 'after 33 s only 50 of the 600 are left to give back');
  t.equal(giveBack(now + 40_000), undefined, 'after 36 s the bucket has refilled the whole draw');
});
