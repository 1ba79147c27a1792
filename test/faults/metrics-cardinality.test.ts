import t from 'tap';
import { chatBody, gxChannel, issueToken, postChat, scenarioGateway, startGx } from '../helpers/gateway-scenario.js';

// A model name is the client's to choose, and a refused one is counted too: as a label of
// gateway_model_requests_total it would make a new time series (and keep its text) per name,
// so a client could grow the gateway's memory and the scraper's without bound.

const seriesOf = (text: string, metric: string) => text.split('\n').filter((line) => line.startsWith(`${metric}{`));

t.test('model names a client makes up do not become metric series', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway);
  t.equal((await postChat(gateway, token, chatBody('a real one'))).statusCode, 200);
  const before = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;

  const madeUp = 200;
  const statuses = new Set<number>();
  for (let index = 0; index < madeUp; index += 1) {
    statuses.add((await postChat(gateway, token, chatBody('x', { model: `made-up-${index}-${'m'.repeat(2000)}` }))).statusCode);
  }
  t.same([...statuses], [404], 'every made-up model is refused');

  const after = (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  const added = seriesOf(after, 'gateway_model_requests_total').length - seriesOf(before, 'gateway_model_requests_total').length;
  t.ok(added <= 2, `${madeUp} made-up names add ${added} model request series`);
  t.ok(after.length - before.length < 10_000, `and ${after.length - before.length} bytes of metrics text`);
});

/** The series of the gateway's own metrics (the process's are left out: a GC kind or handle type may appear at any time), each without its value. */
const gatewaySeries = (text: string) =>
  new Set(
    text
      .split('\n')
      .filter((line) => line.startsWith('gateway_') && !line.startsWith('gateway_nodejs_') && !line.startsWith('gateway_process_'))
      .map((line) => line.slice(0, line.lastIndexOf(' '))),
  );

t.test('a thousand names a pattern channel serves add no metric series: the label is the pattern, and names no channel serves are one label too', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, {
    pricing: { 'gx-8*': { input_per_mtok: 2, output_per_mtok: 12 } },
    providers: [gxChannel('gx-pattern', fake.url, { models: ['gx-8*'] })],
  });
  const token = await issueToken(t, gateway);
  const metrics = async () => (await gateway.app.inject({ method: 'GET', url: '/metrics' })).payload;
  // One of each kind first, so that every series the kinds make exists before counting.
  t.equal((await postChat(gateway, token, chatBody('x', { model: 'gx-8-first' }))).statusCode, 200);
  t.equal((await postChat(gateway, token, chatBody('x', { model: 'nowhere-first' }))).statusCode, 404);
  await metrics();
  const before = await metrics();

  const served = 1000;
  const refused = 50;
  const names: string[] = [];
  for (let index = 0; index < served; index += 1) {
    names.push(`gx-8-invented-${index}`);
    const response = await postChat(gateway, token, chatBody('x', { model: names.at(-1) }));
    if (response.statusCode !== 200) t.fail(`${names.at(-1)}: ${response.statusCode} ${response.payload.slice(0, 200)}`);
  }
  for (let index = 0; index < refused; index += 1) {
    names.push(`nowhere-invented-${index}`);
    if ((await postChat(gateway, token, chatBody('x', { model: names.at(-1) }))).statusCode !== 404) t.fail(`${names.at(-1)} is refused`);
  }
  const after = await metrics();

  const added = [...gatewaySeries(after)].filter((series) => !gatewaySeries(before).has(series));
  t.same(added, [], `${served} names the pattern serves and ${refused} it does not add no series`);
  t.equal(gatewaySeries(after).size, gatewaySeries(before).size, 'the gateway’s series are as many as before');
  t.same(names.filter((name) => after.includes(name)), [], 'no name appears in /metrics');
  t.match(after, /gateway_model_requests_total\{operation="chat",model="gx-8\*",channel="gx-pattern",outcome="success",status="200"\} 1001/, 'the served ones are counted under the pattern');
  t.match(after, /gateway_tokens_total\{model="gx-8\*",direction="input"\}/, 'and billed under it');
});
