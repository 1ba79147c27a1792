import t from 'tap';
import { issueToken } from '../helpers/gateway-scenario.js';
import type { Dialect } from './fault-scene.js';
import { startFaultScene } from './fault-scene.js';
import { modelRouteRequests } from './model-route-requests.js';
import { assertNothingCharged, assertRefusedInDialect, upstreamRequestCount, type Refusal } from './refusal-checks.js';

// A model the gateway serves, sent to a route its provider does not implement (a speech
// model to chat, a chat model to Responses, a video model to images...), is the client's
// mistake: a 4xx in the route's own dialect that names the model and the routes it is served
// on, before any upstream call or any quota is touched. Other gateways answer these with a 500
// or pass them upstream; "no such model" would send the client looking for a typo.

const startingQuota = 5_000_000;

/** "The model is served, but not on this route": 404 `model_not_on_route`, which the images table reports as 400 `invalid_request`. */
const refusalIn: Record<Dialect, Refusal> = {
  openai: { status: 404, code: 'model_not_on_route' },
  native: { status: 404, code: 'model_not_on_route' },
  images: { status: 400, code: 'invalid_request' },
};

t.test('a served model on a route its provider does not implement is a typed 4xx, with no upstream call and no charge', async (t) => {
  const scene = await startFaultScene(t);
  for (const route of modelRouteRequests) {
    t.test(`${route.otherFamilyModel} on ${route.name}`, async (t) => {
      const token = await issueToken(t, scene.gateway, { remain_quota: startingQuota });
      const before = upstreamRequestCount(scene);
      const response = await route.send(scene.gateway, token, route.otherFamilyModel);
      assertRefusedInDialect(t, response, route.dialect, refusalIn[route.dialect]);
      t.match(response.json().error.message, route.otherFamilyModel, 'the message names the model');
      t.match(response.json().error.message, /is not served on (POST|GET|DELETE) \/v1.*; it is served on (POST|GET|DELETE) \/v1/, 'and the routes it is served on, as the client calls them');
      t.equal(upstreamRequestCount(scene), before, 'no upstream is called');
      await assertNothingCharged(t, scene.gateway, token, startingQuota);

      const own = await route.send(scene.gateway, token, route.model);
      t.equal(own.statusCode, 200, `while ${route.model} is answered on the same route`);
    });
  }
});
