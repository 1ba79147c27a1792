import t from 'tap';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';

t.test('rate limits default to none', async (t) => {
  t.same(gatewayConfigSchema.parse({}).rate_limits, { tokens: { requests_per_minute: 0, tokens_per_minute: 0, max_concurrent: 0 }, groups: {} });
});

t.test('rate limits take per-token and per-group limits, numbers given as strings too', async (t) => {
  const config = gatewayConfigSchema.parse({
    groups: { default: {}, vip: {} },
    rate_limits: { tokens: { requests_per_minute: '60', max_concurrent: '8' }, groups: { vip: { tokens_per_minute: 100000, max_concurrent: 50 } } },
  });
  t.same(config.rate_limits, {
    tokens: { requests_per_minute: 60, tokens_per_minute: 0, max_concurrent: 8 },
    groups: { vip: { requests_per_minute: 0, tokens_per_minute: 100000, max_concurrent: 50 } },
  });
});

t.test('rate limits name the group they are about and refuse unknown keys and negative limits', async (t) => {
  const issues = (rateLimits: unknown) =>
    gatewayConfigSchema.safeParse({ rate_limits: rateLimits }).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];
  t.same(issues({ groups: { gold: { requests_per_minute: 5 } } }), ['rate_limits.groups.gold: unknown group "gold"; define it under groups']);
  t.same(issues({ tokens: { requests_per_minute: -1 } }), ['rate_limits.tokens.requests_per_minute: expected at least 0']);
  t.match(issues({ tokens: { rpm: 5 } }), [/rate_limits\.tokens/]);
});
