import t from 'tap';
import { UsageLog } from '../../core/usage/usage-log.js';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, scenarioPricing, startGx, storedToken } from '../helpers/gateway-scenario.js';

const aliases = { 'team-pro': 'gx-2.5-pro', 'team-default': 'team-pro', 'team-next': 'gx-3-pro-preview' };

async function aliasGateway(t: Parameters<typeof startGx>[0]) {
  const gx = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-main', gx.url, { models: ['gx-2.5-pro', 'gx-3-pro-preview'] })],
    aliases,
    // team-next has a price of its own; the others bill as the model they stand for.
    pricing: { ...scenarioPricing, 'team-next': { per_call: 0.01 } },
  });
  return { gx, gateway };
}

t.test('a chat for an alias is served by the model it stands for, billed at its price, and the log keeps the name the client called', async (t) => {
  const { gx, gateway } = await aliasGateway(t);
  const token = await issueToken(t, gateway);
  const before = (await storedToken(gateway, token)).used_quota;
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'team-default' }));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(gx.requests.at(-1)?.path, '/v1beta/models/gx-2.5-pro:generateContent', 'the upstream is asked for the model the chain ends at');
  t.equal(answer.json().model, 'gx-2.5-pro', 'the answer names the model that served');
  const usage = answer.json().usage as { prompt_tokens: number; completion_tokens: number };
  // gx-2.5-pro*: 1.25 and 10 USD per million tokens, 500,000 units per USD.
  const units = Math.ceil(usage.prompt_tokens * 0.625 + usage.completion_tokens * 5);
  t.equal((await storedToken(gateway, token)).used_quota - before, units, "billed at gx-2.5-pro's price");

  await gateway.app.gateway.resolve(UsageLog).flush();
  const records = (await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self' })).json().data.items;
  t.match(records[0], { model_name: 'team-default', upstream_model: 'gx-2.5-pro', quota: units }, 'the record keeps the alias and the model called');
  t.match(gateway.logLines.join('\n'), /"model":"gx-2\.5-pro","alias":"team-default"/, 'the log line names both');
});

t.test('an alias with a price of its own bills at it', async (t) => {
  const { gateway } = await aliasGateway(t);
  const token = await issueToken(t, gateway);
  const before = (await storedToken(gateway, token)).used_quota;
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'team-next' }));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal((await storedToken(gateway, token)).used_quota - before, 5000, '0.01 USD a call');
});

t.test('/v1/models lists the aliases beside the models, with the routes of the model each stands for', async (t) => {
  const { gateway } = await aliasGateway(t);
  const token = await issueToken(t, gateway);
  const listed = await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: token.bearer });
  const models = listed.json().data as { id: string; routes: string[] }[];
  t.same(models.map((model) => model.id), ['gx-2.5-pro', 'gx-3-pro-preview', 'team-default', 'team-next', 'team-pro']);
  t.same(models.find((model) => model.id === 'team-pro')?.routes, models.find((model) => model.id === 'gx-2.5-pro')?.routes);
  const one = await gateway.app.inject({ method: 'GET', url: '/v1/models/team-default', headers: token.bearer });
  t.equal(one.statusCode, 200);
  t.equal(one.json().id, 'team-default');
});

t.test("a token's model_limits may name the alias or the model it stands for", async (t) => {
  const { gateway } = await aliasGateway(t);
  const byAlias = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['team-pro'] });
  t.equal((await postChat(gateway, byAlias, chatBody('hi', { model: 'team-pro' }))).statusCode, 200, 'the alias the limits name');
  const direct = await postChat(gateway, byAlias, chatBody('hi', { model: 'gx-2.5-pro' }));
  t.equal(direct.statusCode, 403, 'the limits name the alias only, so the model itself is refused');
  t.equal(direct.json().error.code, 'model_not_allowed');

  const byModel = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['gx-2.5-pro'] });
  t.equal((await postChat(gateway, byModel, chatBody('hi', { model: 'team-default' }))).statusCode, 200, 'an alias of the model the limits name');
  t.equal((await postChat(gateway, byModel, chatBody('hi', { model: 'team-next' }))).statusCode, 403, 'an alias of another model');
  const listed = (await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: byModel.bearer })).json().data.map((model: { id: string }) => model.id);
  t.same(listed, ['gx-2.5-pro', 'team-default', 'team-pro'], 'the list shows what the token may call');
});

t.test("an alias of the vendor's own id serves a client that sends it: routed and billed as the neutral id, called upstream as the channel's model_map says", async (t) => {
  const gx = await startGx(t);
  const gateway = await scenarioGateway(t, {
    providers: [gxChannel('gx-main', gx.url, { models: ['gx-2.5-pro'], model_map: { 'gx-2.5-pro': 'gemini-2.5-pro' } })],
    aliases: { 'gemini-2.5-pro': 'gx-2.5-pro' },
  });
  const token = await issueToken(t, gateway);
  const before = (await storedToken(gateway, token)).used_quota;
  const answer = await postChat(gateway, token, chatBody('hello', { model: 'gemini-2.5-pro' }));
  t.equal(answer.statusCode, 200, answer.body);
  t.equal(gx.requests.at(-1)?.path, '/v1beta/models/gemini-2.5-pro:generateContent', "the upstream is asked for the vendor's id");
  const usage = answer.json().usage as { prompt_tokens: number; completion_tokens: number };
  const units = Math.ceil(usage.prompt_tokens * 0.625 + usage.completion_tokens * 5);
  t.equal((await storedToken(gateway, token)).used_quota - before, units, "billed at gx-2.5-pro's price");
  await gateway.app.gateway.resolve(UsageLog).flush();
  const records = (await gateway.asUser(token.loginToken, { method: 'GET', url: '/api/log/self' })).json().data.items;
  t.match(records[0], { model_name: 'gemini-2.5-pro', upstream_model: 'gemini-2.5-pro', quota: units }, 'the record keeps the name the client sent');
});
