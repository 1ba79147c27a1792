import t from 'tap';
import { costUnits, quotaUnitsPerUsd, usdOfUsage } from '../../../core/billing/cost-of-usage.js';
import { emptyUsage, type Usage } from '../../../core/contracts/usage.js';

const usage = (fields: Partial<Usage>): Usage => ({ ...emptyUsage(), ...fields });
const gxPro = { input_per_mtok: 1.25, output_per_mtok: 10, cached_input_per_mtok: 0.31 };

t.test('500,000 units equal one US dollar', async (t) => {
  t.equal(quotaUnitsPerUsd, 500_000);
  t.equal(costUnits({ per_call: 1 }, usage({}), 1), 500_000);
});

t.test('text is priced per million tokens: uncached prompt, cached prompt and completion with reasoning', async (t) => {
  // (800 × 1.25 + 200 × 0.31 + 500 × 10) / 1e6 = 0.006062 USD = 3031 units.
  const text = usage({ inputTokens: 1000, cachedInputTokens: 200, outputTokens: 500, reasoningTokens: 120 });
  t.equal(usdOfUsage(gxPro, text), 0.006062);
  t.equal(costUnits(gxPro, text, 1), 3031);
});

t.test('the group ratio scales the cost before rounding up', async (t) => {
  const text = usage({ inputTokens: 1000, cachedInputTokens: 200, outputTokens: 500 });
  // 3031 × 0.8 = 2424.8, rounded up.
  t.equal(costUnits(gxPro, text, 0.8), 2425);
  t.equal(costUnits(gxPro, text, 2), 6062);
  t.equal(costUnits(gxPro, text, 0), 0);
});

t.test('cached prompt tokens cost the input price when no cached price is set', async (t) => {
  // 1000 prompt tokens at $1 per million, 400 of them cached: 0.001 USD = 500 units.
  t.equal(costUnits({ input_per_mtok: 1 }, usage({ inputTokens: 1000, cachedInputTokens: 400 }), 1), 500);
});

t.test('any fraction of a unit is rounded up', async (t) => {
  // 3 tokens at $0.15 per million: 4.5e-7 USD = 0.225 units.
  t.equal(costUnits({ input_per_mtok: 0.15 }, usage({ inputTokens: 3 }), 1), 1);
});

t.test('floating-point noise in decimal prices does not cost an extra unit', async (t) => {
  // 0.04 × 3 is 0.12000000000000001 in binary floating point.
  t.equal(costUnits({ per_image: 0.04 }, usage({ images: 3 }), 1), 60_000);
  t.equal(costUnits({ per_call: 0.1 }, usage({}), 0.7), 35_000);
});

t.test('images are priced per image', async (t) => {
  t.equal(costUnits({ per_image: 0.04 }, usage({ images: 1 }), 1), 20_000);
  t.equal(costUnits({ per_image: 0.04 }, usage({}), 1), 0);
});

t.test('seconds are priced per second times the multiplier of the resolution', async (t) => {
  const price = { per_second: 0.1, resolution_multipliers: { '1080p': 1.5 } };
  // 8 s × $0.10 × 1.5 = $1.20; without a known resolution the multiplier is 1.
  t.equal(costUnits(price, usage({ seconds: 8 }), 1, { resolution: '1080p' }), 600_000);
  t.equal(costUnits(price, usage({ seconds: 8 }), 1, { resolution: '720p' }), 400_000);
  t.equal(costUnits(price, usage({ seconds: 8 }), 1), 400_000);
});

t.test('speech is priced per thousand characters and transcription per minute', async (t) => {
  // 2500 chars × $0.015 / 1000 = $0.0375; 2.5 min × $0.006 = $0.015.
  t.equal(costUnits({ per_1k_chars: 0.015 }, usage({ characters: 2500 }), 1), 18_750);
  t.equal(costUnits({ per_minute: 0.006 }, usage({ minutes: 2.5 }), 1), 7_500);
});

t.test('a per-call price is charged once per request', async (t) => {
  t.equal(costUnits({ per_call: 0.0001 }, usage({ inputTokens: 12 }), 1), 50);
});

t.test('a model combining price keys pays the sum of them', async (t) => {
  // $0.01 per call + 1000 prompt tokens at $2 per million + 2 images at $0.02 = $0.052.
  const price = { per_call: 0.01, input_per_mtok: 2, per_image: 0.02 };
  t.equal(costUnits(price, usage({ inputTokens: 1000, images: 2 }), 1), 26_000);
});

t.test('a usage of nothing costs nothing on token prices, and a free model costs nothing', async (t) => {
  t.equal(costUnits(gxPro, usage({}), 1), 0);
  t.equal(costUnits(undefined, usage({ inputTokens: 1_000_000, outputTokens: 1_000_000 }), 1), 0);
});

t.test('inconsistent counts are clamped: cached beyond the prompt, negative or missing values', async (t) => {
  // All 100 prompt tokens count as cached: 100 × 0.31 / 1e6 USD = 15.5 units.
  t.equal(costUnits(gxPro, usage({ inputTokens: 100, cachedInputTokens: 500 }), 1), 16);
  t.equal(costUnits(gxPro, usage({ inputTokens: -5, outputTokens: Number.NaN }), 1), 0);
});
