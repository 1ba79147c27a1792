import t from 'tap';
import { buildTestApp } from '../helpers/build-test-app.js';
import { issueToken } from '../helpers/gateway-scenario.js';

interface Pricing {
  quota_per_usd: number;
  groups: { name: string; ratio: number }[];
  auto_groups: string[];
  models: { model_name: string; enable_groups: string[]; routes: Record<string, string[]>; price: Record<string, number> | null; billing: string }[];
}

const pricing = { 'gx-2.5-pro': { input_per_mtok: 1.25, output_per_mtok: 10 }, 'gp-*': { input_per_mtok: 2, output_per_mtok: 8, cached_input_per_mtok: 0.5 } };

t.test('GET /api/pricing lists every served model with its groups, routes and USD price, and each group ratio', async (t) => {
  const gateway = await buildTestApp(t, 'memory', { pricing, billing: { price_catalog: false } });
  const login = await gateway.createUser('pricing-reader');
  const response = await gateway.asUser(login, { method: 'GET', url: '/api/pricing' });
  t.equal(response.statusCode, 200);
  const { success, data } = response.json() as { success: boolean; data: Pricing };
  t.equal(success, true);
  t.equal(data.quota_per_usd, 500_000, 'quota units per USD, to show a quota in dollars');
  t.same(data.groups, [{ name: 'default', ratio: 1 }, { name: 'vip', ratio: 0.8 }]);
  t.same(data.auto_groups, ['default', 'vip']);
  t.same(data.models.map((model) => model.model_name), ['gp-5.4', 'gx-2.5-pro', 'gx-latest'], 'exact names, as /v1/models lists them; patterns are not listed');
  const byName = new Map(data.models.map((model) => [model.model_name, model]));
  t.same(byName.get('gx-2.5-pro')?.price, { input_per_mtok: 1.25, output_per_mtok: 10 }, 'the operator price, in USD before the ratio');
  t.equal(byName.get('gx-2.5-pro')?.billing, 'priced');
  t.same(byName.get('gp-5.4')?.price, pricing['gp-*'], 'a pattern prices the models it matches');
  t.same(byName.get('gp-5.4')?.enable_groups, ['vip']);
  t.same(byName.get('gx-latest')?.price, pricing['gx-2.5-pro'], 'a model_map key without a price of its own: the price of the model it calls');
  t.equal(byName.get('gx-latest')?.billing, 'priced');
  t.same(Object.keys(byName.get('gx-2.5-pro')?.routes ?? {}), ['default']);

  const token = await issueToken(t, gateway, { group: 'default' });
  const listed = await gateway.app.inject({ method: 'GET', url: '/v1/models/gx-2.5-pro', headers: token.bearer });
  t.same(byName.get('gx-2.5-pro')?.routes.default, listed.json().routes, 'the routes /v1/models lists for a token of that group');
  t.ok(byName.get('gx-2.5-pro')?.routes.default?.includes('POST /v1/chat/completions'));
});

t.test('GET /api/pricing says unpriced for a model nothing prices, and free when free models are allowed', async (t) => {
  const providers = [{ name: 'gx-main', plugin: 'gx', base_url: 'http://127.0.0.1:9/gx', api_key: 'upstream-secret', models: ['gx-2.5-pro', 'gx-lab'] }];
  for (const [allow, billing] of [[false, 'unpriced'], [true, 'free']] as const) {
    const gateway = await buildTestApp(t, 'memory', { pricing, providers, billing: { price_catalog: false, allow_free_models: allow } });
    const login = await gateway.createUser('pricing-reader');
    const { data } = (await gateway.asUser(login, { method: 'GET', url: '/api/pricing' })).json() as { data: Pricing };
    const lab = data.models.find((model) => model.model_name === 'gx-lab');
    t.same(lab?.price, null);
    t.equal(lab?.billing, billing, allow ? 'served free' : 'no price and no free models: requests for it are refused');
  }
});

t.test('GET /api/pricing takes a login token', async (t) => {
  const gateway = await buildTestApp(t, 'memory');
  const response = await gateway.app.inject({ method: 'GET', url: '/api/pricing' });
  t.equal(response.statusCode, 401);
  t.match(response.json(), { success: false, message: /login token/ });
});
