import t, { type Test } from 'tap';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';
import type { ProviderLogger } from '../../../core/contracts/provider/provider-host.js';
import type { Usage } from '../../../core/contracts/usage.js';
import { unavailable } from '../../../core/errors/error-codes.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { RateLimiter, type RateLimitedRequest } from '../../../core/limits/rate-limiter.js';
import { MemoryStoreBackend } from '../../../core/store/memory-store-backend.js';
import type { StoreBackend } from '../../../core/store/store-backend.js';

const warnings: string[] = [];
const logger: ProviderLogger = { debug() {}, info() {}, warn: (_object, message) => void warnings.push(String(message)), error() {} };

const usage = (inputTokens: number, outputTokens = 0): Usage => ({ inputTokens, cachedInputTokens: 0, outputTokens, reasoningTokens: 0, source: 'upstream' });

/** A limiter on a fresh memory store with the given `rate_limits` section. */
function limiterWith(rateLimits: Record<string, unknown>, backend: StoreBackend = new MemoryStoreBackend()): RateLimiter {
  return new RateLimiter(backend, gatewayConfigSchema.parse({ groups: { default: {}, vip: {} }, rate_limits: rateLimits }).rate_limits);
}

const request = (fields: Partial<RateLimitedRequest> = {}): RateLimitedRequest => ({
  tokenId: 1,
  group: 'default',
  operation: 'chat',
  estimate: usage(10),
  logger,
  ...fields,
});

/** The 429 an admission is refused with. */
async function refusal(t: Test, admitted: Promise<unknown>): Promise<GatewayError> {
  const error = await admitted.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  t.ok(GatewayError.is(error), 'the request is refused');
  return error as GatewayError;
}

t.test("admits a token's requests per minute, then refuses with the seconds until one more fits", async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 3 } });
  for (let count = 0; count < 3; count += 1) await limiter.admit(request());
  const refused = await refusal(t, limiter.admit(request()));
  t.equal(refused.statusCode, 429);
  t.equal(refused.code, 'rate_limit_exceeded');
  t.equal(refused.headers['retry-after'], '20', 'three a minute refill one every 20 s');
  t.match(refused.message, /this API key allows 3 requests per minute; retry in 20 s/);
});

t.test("counts each token on its own and a group's tokens together", async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 5 }, groups: { default: { requests_per_minute: 3 } } });
  await limiter.admit(request({ tokenId: 1 }));
  await limiter.admit(request({ tokenId: 1 }));
  await limiter.admit(request({ tokenId: 2 }));
  const refused = await refusal(t, limiter.admit(request({ tokenId: 2 })));
  t.match(refused.message, /group "default" allows 3 requests per minute/);
  await t.resolves(limiter.admit(request({ tokenId: 2, group: 'vip' })), 'another group has its own limits');
});

t.test('a refused request takes nothing from the limits that had room', async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 1 }, groups: { default: { requests_per_minute: 1 } } });
  await limiter.admit(request({ tokenId: 1 }));
  await refusal(t, limiter.admit(request({ tokenId: 2 })));
  await t.resolves(limiter.admit(request({ tokenId: 2, group: 'vip' })), "token 2's own minute is still unused");
});

t.test('holds the estimated tokens until the request settles, then counts its real tokens', async (t) => {
  const limiter = limiterWith({ tokens: { tokens_per_minute: 1000 } });
  const first = await limiter.admit(request({ estimate: usage(100, 500) }));
  const refused = await refusal(t, limiter.admit(request({ estimate: usage(100, 500) })));
  t.equal(refused.headers['retry-after'], '12', '200 tokens short at 1000 a minute');
  t.match(refused.message, /this API key allows 1000 tokens per minute, and this request needs room for 600/);
  await first.settle(usage(60, 40));
  await t.resolves(limiter.admit(request({ estimate: usage(100, 500) })), 'the unused 500 came back');
  const short = await refusal(t, limiter.admit(request({ estimate: usage(400) })));
  t.equal(short.headers['retry-after'], '6', '100 + 600 held, 400 more is 100 over');
});

t.test('counts usage beyond the estimate once the request settles', async (t) => {
  const limiter = limiterWith({ tokens: { tokens_per_minute: 1000 } });
  const admission = await limiter.admit(request({ estimate: usage(50, 50) }));
  await admission.settle(usage(300, 600));
  const refused = await refusal(t, limiter.admit(request({ estimate: usage(200) })));
  t.equal(refused.headers['retry-after'], '6', '900 used and 200 more is 100 over');
});

t.test('admits a request estimated above the whole limit only while nothing else is held', async (t) => {
  const limiter = limiterWith({ tokens: { tokens_per_minute: 1000 } });
  const admission = await limiter.admit(request({ estimate: usage(100, 4096) }));
  await refusal(t, limiter.admit(request({ estimate: usage(1) })));
  await admission.settle(usage(100, 200));
  await t.resolves(limiter.admit(request({ estimate: usage(700) })), 'after settling, only its real 300 tokens count');
});

t.test('a released admission gives back its request and its tokens, once', async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 1, tokens_per_minute: 1000 } });
  const admission = await limiter.admit(request({ estimate: usage(600) }));
  await admission.release();
  await admission.release();
  await admission.settle(usage(5000));
  const again = await limiter.admit(request({ estimate: usage(1000) }));
  t.ok(again, 'the whole minute is free again');
  await refusal(t, limiter.admit(request({ estimate: usage(1) })));
});

t.test('a request that settles counts as a request even with no tokens', async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 1 } });
  await (await limiter.admit(request())).settle(usage(0));
  await refusal(t, limiter.admit(request()));
});

t.test('does not limit the asset library', async (t) => {
  const limiter = limiterWith({ tokens: { requests_per_minute: 1 } });
  for (let count = 0; count < 5; count += 1) await limiter.admit(request({ operation: 'assets.get' }));
  await t.resolves(limiter.admit(request({ operation: 'images.generate' })));
  await refusal(t, limiter.admit(request({ operation: 'video.submit' })));
});

t.test('a gateway without limits never asks the store', async (t) => {
  const failing = new MemoryStoreBackend();
  failing.drawRates = () => Promise.reject(new Error('the store was asked'));
  const limiter = limiterWith({ tokens: { requests_per_minute: 0 }, groups: { vip: { tokens_per_minute: 0 } } }, failing);
  const admission = await limiter.admit(request());
  await t.resolves(admission.settle(usage(100)));
});

t.test('a store that fails refuses the request with its 503 instead of letting it through', async (t) => {
  const failing = new MemoryStoreBackend();
  failing.drawRates = () => Promise.reject(unavailable('storage is unavailable; try again shortly'));
  const limiter = limiterWith({ tokens: { requests_per_minute: 2 } }, failing);
  await t.rejects(limiter.admit(request()), { statusCode: 503, code: 'service_unavailable' });
});

t.test('a correction the store refuses is logged, not thrown', async (t) => {
  warnings.length = 0;
  const backend = new MemoryStoreBackend();
  const limiter = limiterWith({ tokens: { tokens_per_minute: 1000 } }, backend);
  const admission = await limiter.admit(request({ estimate: usage(600) }));
  backend.correctRate = () => Promise.reject(unavailable('storage is unavailable; try again shortly'));
  await t.resolves(admission.settle(usage(10)));
  t.same(warnings, ['could not correct a rate limit bucket']);
});
