import t from 'tap';
import { parsePriceCatalog, shippedPriceCatalog, shippedPriceCatalogFile } from '../../../core/billing/price-catalog.js';
import { costUnits, priceOfModel } from '../../../core/billing/pricing.js';
import { ConfigError } from '../../../core/config/config-error.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { storageFor, testConfig } from '../../helpers/test-config.js';

/**
 * Every model id the spec names (/work/shared/spec, part 1 and part 2), taken from its text
 * with `grep -o` over the backticked words that start with a family prefix (gx-, gp-, gi-,
 * qi-, dsr-, dse-, sr-, vo-, wn2.x-, hx-, sdx-, dsx-) or name a model outright
 * (text-embedding-004, tts-1, tts-1-hd, stt-1); family words alone (`gx-`, `wn2.5`), headers
 * (`x-gx-api-key`), tools (`gxSearch`) and the thinking suffixes (`-thinking`…) are not ids.
 */
const specModelIds = [
  // part 1: chat, Responses, native, embeddings, audio
  'gx-2.5-pro', 'gx-3.5-flash', 'gx-3.1-pro-preview', 'gx-3-flash-preview', 'gx-3.1-flash-lite-preview', 'gx-3-pro-preview',
  'gx-2.5-flash-image', 'gx-2.5-flash-preview-tts', 'gx-2.5-pro-preview-tts', 'text-embedding-004',
  'gp-5.5', 'gp-5.4', 'gp-5.4-pro', 'gp-5.4-mini', 'gp-5.4-nano', 'gp-4o', 'gp-4.1', 'gp-4o-mini',
  'tts-1', 'tts-1-hd', 'stt-1',
  // part 2: images
  'gx-3-pro-image-preview', 'gx-3.1-flash-image-preview',
  'dsr-3-0-t2i-250415', 'dsr-4-0-250828', 'dsr-4-5-251128', 'dse-3-0-i2i-250628', 'gi-2', 'qi-plus', 'qi-edit-plus',
  // part 2: video
  'sr-2', 'vo-3.0-fast-generate-001', 'vo-3.1-fast-generate-preview',
  'wn2.5-t2v-preview', 'wn2.5-i2v-preview', 'wn2.7-t2v-2026-04-25', 'wn2.7-i2v-2026-04-25', 'wn2.7-r2v',
  'hx-1.0-t2v', 'hx-1.0-i2v', 'hx-1.0-r2v', 'sdx-2-0', 'sdx-2-0-fast',
  'dsx-1-0-lite-t2v-250428', 'dsx-1-0-lite-i2v-250428', 'dsx-1-0-pro-250528', 'dsx-1-5-pro-251215', 'dsx-1-5-pro-251215-noAudio',
];

t.test('the shipped catalog loads from config/ and every entry has a price, what it stands for, a source and a date', async (t) => {
  t.match(shippedPriceCatalogFile(), /config[\\/]price-catalog\.yaml$/);
  const catalog = shippedPriceCatalog();
  t.ok(Object.keys(catalog.entries).length >= specModelIds.length);
  for (const [model, entry] of Object.entries(catalog.entries)) {
    t.ok(Object.keys(entry.price).some((key) => key !== 'resolution_multipliers'), `${model} has a price`);
    t.ok(entry.source.length > 20, `${model} says where its price comes from`);
    t.match(entry.as_of, /^20\d\d-\d\d-\d\d$/, `${model} has a date`);
    t.ok(entry.stands_for.length > 0, `${model} says what it stands for`);
  }
});

t.test('every model id the spec names has a catalog price', async (t) => {
  const { entries } = shippedPriceCatalog();
  const missing = specModelIds.filter((model) => !Object.hasOwn(entries, model));
  t.same(missing, [], 'no spec model id is missing from config/price-catalog.yaml');
});

t.test('the catalog prices each family in the units its usage is measured in', async (t) => {
  const { prices } = shippedPriceCatalog();
  t.ok(prices['gp-5.4']?.input_per_mtok && prices['gp-5.4']?.output_per_mtok, 'text models per 1M tokens');
  t.ok(prices['gx-3-pro-image-preview']?.per_image, 'images per image');
  t.ok(prices['sr-2']?.per_second, 'video per second');
  t.same(prices['wn2.5-t2v-preview']?.resolution_multipliers, { '480p': 1, '720p': 2, '1080p': 3 }, 'with resolution multipliers');
  t.ok(prices['tts-1']?.per_1k_chars, 'speech per 1k characters');
  t.ok(prices['stt-1']?.per_minute, 'transcription per minute');
});

t.test('a spec model the operator did not price is billed at its catalog price', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: {} });
  const price = priceOfModel(config, 'wn2.5-t2v-preview');
  t.same(price, shippedPriceCatalog().prices['wn2.5-t2v-preview']);
  // 5 seconds at 1080p: 0.05 × 3 × 5 = 0.75 USD = 375,000 units.
  t.equal(costUnits(price, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds: 5, resolution: '1080p', source: 'upstream' }, 1), 375_000);
});

t.test("the operator's exact pricing entry overrides the catalog", async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: { 'gp-5.4': { input_per_mtok: 1, output_per_mtok: 2 } } });
  t.same(priceOfModel(config, 'gp-5.4'), { input_per_mtok: 1, output_per_mtok: 2 });
});

t.test("the operator's pattern prices a whole family, catalog entries included", async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: { 'dsx-*': { per_second: 0.2 } } });
  t.same(priceOfModel(config, 'dsx-1-0-pro-250528'), { per_second: 0.2 }, 'a catalog model the pattern matches');
  t.same(priceOfModel(config, 'dsx-9-0-new-261001'), { per_second: 0.2 }, 'a model the catalog does not know');
  t.same(priceOfModel(config, 'sdx-2-0'), shippedPriceCatalog().prices['sdx-2-0'], 'a model the pattern does not match keeps its catalog price');
});

t.test('a model_map key nothing prices by name is billed at the price of the model it calls', async (t) => {
  const provider = (model_map: Record<string, string>) => ({ name: 'gx-main', plugin: 'gx', base_url: 'http://127.0.0.1:9/gx', api_key: 'upstream-secret', models: ['gx-2.5-pro'], model_map });
  const neutral = testConfig(storageFor(t, 'memory'), { pricing: {}, providers: [provider({ 'gx-latest': 'gx-2.5-pro' })] });
  t.same(priceOfModel(neutral, 'gx-latest'), shippedPriceCatalog().prices['gx-2.5-pro'], 'a target the catalog prices under its id');
  const vendor = testConfig(storageFor(t, 'memory'), { pricing: {}, providers: [provider({ 'team-pro': 'gemini-2.5-pro' })] });
  t.same(priceOfModel(vendor, 'team-pro'), shippedPriceCatalog().prices['gx-2.5-pro'], 'a target named as the vendor names it: the entry that stands for it');
  const asIs = testConfig(storageFor(t, 'memory'), { pricing: {}, providers: [provider({ 'gemini-2.5-pro': 'gemini-2.5-pro' })] });
  t.same(priceOfModel(asIs, 'gemini-2.5-pro'), shippedPriceCatalog().prices['gx-2.5-pro'], "a vendor's id served as is");
  const operator = testConfig(storageFor(t, 'memory'), { pricing: { 'team-pro': { per_call: 0.01 } }, providers: [provider({ 'team-pro': 'gemini-2.5-pro' })] });
  t.same(priceOfModel(operator, 'team-pro'), { per_call: 0.01 }, "the operator's own price for the key still wins");
  const unknown = testConfig(storageFor(t, 'memory'), { pricing: {}, providers: [provider({ 'team-lab': 'gemini-lab-9' })] });
  t.throws(() => priceOfModel(unknown, 'team-lab'), { code: 'model_price_missing' }, 'a target nothing prices leaves the key unpriced');
});

t.test('with billing.price_catalog false only pricing prices', async (t) => {
  const config = testConfig(storageFor(t, 'memory'), { pricing: {}, billing: { price_catalog: false } });
  const error = t.throws(() => priceOfModel(config, 'gp-5.4')) as unknown;
  t.ok(GatewayError.is(error));
  t.match(error, { statusCode: 400, code: 'model_price_missing' });
});

t.test('a broken catalog is refused with every problem named by its path', async (t) => {
  const text = `models:
  gp-x:
    price: { input_per_mtok: -1 }
    stands_for: gpt-x
    source: somewhere
    as_of: 2026-13-45
  gp-y:
    price: {}
    stands_for: gpt-y
    as_of: 2026-01-01
    note: extra
`;
  const error = t.throws(() => parsePriceCatalog(text, 'catalog.yaml')) as unknown;
  t.ok(error instanceof ConfigError);
  t.same(
    (error as ConfigError).problems.map((problem) => problem.path).sort(),
    ['models["gp-x"].as_of', 'models["gp-x"].price.input_per_mtok', 'models["gp-y"].note', 'models["gp-y"].price', 'models["gp-y"].source'],
  );
});
