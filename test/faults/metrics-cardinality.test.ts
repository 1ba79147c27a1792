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
