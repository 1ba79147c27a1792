import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { startFakeArkUpstream } from '../fakes/ark/fake-ark-upstream.js';
import type { TestApp } from '../helpers/build-test-app.js';
import { issueToken, lastRequestRecord, scenarioGateway, scenarioPricing, type IssuedToken } from '../helpers/gateway-scenario.js';
import { routesUnderFault, startFaultScene, type Dialect } from './fault-scene.js';
import { modelRouteRequests } from './model-route-requests.js';
import { assertNothingCharged, assertRefusedInDialect, upstreamRequestCount } from './refusal-checks.js';

// A token's model_limits and allow_ips hold on every POST model route, not only on chat: a
// restricted token gets 403 in the route's dialect, no upstream hears of the request, and
// the token keeps every unit. The same token shape with the route's model (or the caller's
// address) allowed is answered, so each refusal is about the restriction, not the route.

const startingQuota = 5_000_000;

interface RestrictedRoute {
  name: string;
  dialect: Dialect;
  send(gateway: TestApp, token: IssuedToken): Promise<LightMyRequestResponse>;
}

/** A gateway and the number of requests its upstreams have received so far. */
interface Served {
  gateway: TestApp;
  upstreamRequests(): number;
}

/** The restrictions, each as fields that refuse the route's model or the caller, and fields that admit them. */
function restrictions(model: string, servedModels: string[]) {
  return [
    {
      name: "model_limits without the route's model",
      code: 'model_not_allowed',
      refusing: { model_limits_enabled: true, model_limits: servedModels.filter((other) => other !== model) },
      admitting: { model_limits_enabled: true, model_limits: [model] },
    },
    // inject's caller is 127.0.0.1.
    { name: 'allow_ips without the caller', code: 'access_denied', refusing: { allow_ips: '10.0.0.0/8, ::1' }, admitting: { allow_ips: '127.0.0.1' } },
  ];
}

async function servedModels(gateway: TestApp, token: IssuedToken): Promise<string[]> {
  const listed = await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer });
  return listed.json().data.map((model: { id: string }) => model.id);
}

function testRestrictions(t: Test, served: Served, route: RestrictedRoute): void {
  t.test(route.name, async (t) => {
    const { gateway } = served;
    const open = await issueToken(t, gateway);
    t.equal((await route.send(gateway, open)).statusCode, 200, 'an unrestricted token is answered');
    const model = lastRequestRecord(gateway)?.model as string;
    const models = await servedModels(gateway, open);
    t.ok(models.includes(model) && models.length > 1, `the route's model ${model} is one of several served`);

    for (const restriction of restrictions(model, models)) {
      const refused = await issueToken(t, gateway, { remain_quota: startingQuota, ...restriction.refusing });
      const before = served.upstreamRequests();
      const response = await route.send(gateway, refused);
      await t.test(`${restriction.name}: 403 ${restriction.code}, nothing sent upstream, nothing charged`, async (t) => {
        assertRefusedInDialect(t, response, route.dialect, { status: 403, code: restriction.code });
        t.equal(served.upstreamRequests(), before, 'no upstream is called');
        await assertNothingCharged(t, gateway, refused, startingQuota);
      });
      const admitted = await issueToken(t, gateway, restriction.admitting);
      t.equal((await route.send(gateway, admitted)).statusCode, 200, `${restriction.name.replace(' without', ' with only')} is answered`);
    }
  });
}

/** The POST model routes fault-scene does not drive, at the model the scene serves on each. */
const beyondFaultScene = ['native embedContent', 'native batchEmbedContents', 'images edits', 'audio translations', 'videos'];

t.test('model_limits and allow_ips refuse a token on every POST model route', async (t) => {
  const scene = await startFaultScene(t);
  const served: Served = { gateway: scene.gateway, upstreamRequests: () => upstreamRequestCount(scene) };
  const others = modelRouteRequests
    .filter((route) => beyondFaultScene.includes(route.name))
    .map((route) => ({ ...route, send: (gateway: TestApp, token: IssuedToken) => route.send(gateway, token, route.model) }));
  t.equal(others.length, beyondFaultScene.length, 'every route beyond the fault scene is found');
  for (const route of [...routesUnderFault, ...others]) testRestrictions(t, served, route);
});

t.test('model_limits and allow_ips refuse a token on the asset library routes, which run as assets.model', async (t) => {
  const keys = { accessKeyId: 'asset-ak', secretAccessKey: 'asset-sk' };
  const ark = await startFakeArkUpstream({ apiKey: 'ark-key', ...keys });
  t.teardown(() => ark.close());
  const gateway = await scenarioGateway(t, {
    pricing: { ...scenarioPricing, 'sdx-*': { per_second: 0.2 } },
    providers: [
      {
        name: 'ark',
        plugin: 'dsx',
        base_url: ark.url,
        api_key: 'ark-key',
        models: ['sdx-2-0', 'sdx-2-0-fast'],
        options: { assets: { base_url: ark.url, access_key_id: keys.accessKeyId, secret_access_key: keys.secretAccessKey } },
      },
    ],
  });
  const served: Served = { gateway, upstreamRequests: () => ark.requests.length };
  for (const [url, payload] of [['/v1/asset-groups', { name: 'cast' }], ['/v1/visual-validate/session', {}]] as const) {
    testRestrictions(t, served, {
      name: `POST ${url}`,
      dialect: 'openai',
      send: (gateway, token) => gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json' }, payload }),
    });
  }
});
