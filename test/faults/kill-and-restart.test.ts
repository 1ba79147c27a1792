import t from 'tap';
import { loadConfigFile } from '../../core/config/load-config.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { listeningUrl, startCliGateway } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { chatBody, sseData, startGx } from '../helpers/gateway-scenario.js';
import { issueProcessToken, processGatewayConfig, usedQuota } from './process-gateway.js';
import { readAnswer } from './process-http.js';

// kill -9 right after the last answer, then a restart on the same SQLite files: every token
// change the management API acknowledged is there, and every model request answered 200
// (JSON or a finished stream) is billed exactly once.

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const startingQuota = 5_000_000;

t.test('kill -9 loses no acknowledged token change and no billed request', async (t) => {
  const fake = await startGx(t);
  const setup = processGatewayConfig(t, fake.url);
  const gateway = startCliGateway(t, setup.file);
  const base = listeningUrl(await gateway.waitForLog(/^Server listening at /));
  const manage = (method: string, path: string, body?: unknown) => httpCall(`${base}${path}`, { method, headers: setup.asOperator, body });
  const acknowledged = async (method: string, path: string, body?: unknown) => {
    const answer = await manage(method, path, body);
    if (answer.status !== 200 || answer.json().success !== true) throw new Error(`${method} ${path}: ${answer.body}`);
    return answer.json();
  };

  const billed = await issueProcessToken(base, setup, { name: 'billed' });
  const chat = (stream: boolean) => readAnswer(`${base}/v1/chat/completions`, { headers: billed.bearer, body: chatBody('kill-00', stream ? { stream: true } : {}) });
  const answered = (answer: { status: number; body: string; ending: string }, stream: boolean) =>
    answer.status === 200 && answer.ending === 'complete' && (!stream || sseData(answer.body).at(-1) === '[DONE]');

  t.ok(answered(await chat(false), false));
  const jsonCost = await usedQuota(base, setup, billed.id);
  t.ok(answered(await chat(true), true));
  await sleep(100);
  const streamCost = (await usedQuota(base, setup, billed.id)) - jsonCost;
  let jsonAnswers = 1;
  let streamAnswers = 1;

  const renamed = await issueProcessToken(base, setup, { name: 'to rename' });
  const disabled = await issueProcessToken(base, setup, { name: 'to disable' });
  const deleted = await issueProcessToken(base, setup, { name: 'to delete' });
  const batchDeleted = await issueProcessToken(base, setup, { name: 'to batch delete' });
  await acknowledged('PUT', '/api/token/', { id: renamed.id, name: 'renamed', remain_quota: 777, expired_time: -1 });
  await acknowledged('PUT', '/api/token/?status_only=true', { id: disabled.id, status: 2 });
  await acknowledged('DELETE', `/api/token/${deleted.id}`);
  await acknowledged('POST', '/api/token/batch', { ids: [batchDeleted.id] });

  for (let index = 0; index < 10; index += 1) {
    const stream = index % 3 === 0;
    const answer = await chat(stream);
    if (answered(answer, stream)) stream ? (streamAnswers += 1) : (jsonAnswers += 1);
  }

  // The last burst: requests and a token change together, and kill -9 the moment the last
  // answer has arrived, before the process can do anything after it.
  const last = [
    ...Array.from({ length: 12 }, (_, index) => ({ stream: index % 2 === 0, answer: chat(index % 2 === 0) })),
  ];
  const lastCreate = acknowledged('POST', '/api/token/', { name: 'created last', remain_quota: 42 });
  const settledAll = await Promise.allSettled([lastCreate, ...last.map((entry) => entry.answer)]);
  gateway.child.kill('SIGKILL');
  t.equal(settledAll[0]?.status, 'fulfilled', 'the last token change was acknowledged');
  for (const [index, entry] of last.entries()) {
    const outcome = settledAll[index + 1];
    if (outcome?.status === 'fulfilled' && answered(outcome.value, entry.stream)) entry.stream ? (streamAnswers += 1) : (jsonAnswers += 1);
  }
  t.equal(jsonAnswers + streamAnswers, 24, 'every request was answered before the kill');
  t.equal(await gateway.exited, null, 'the process died of the signal');

  const restarted = await buildTestApp(t, 'sqlite', {}, { config: loadConfigFile(setup.file).config });
  const listed = await restarted.app.inject({ method: 'GET', url: '/api/token/?size=100', headers: setup.asOperator });
  const tokens = listed.json().data.items as Array<Record<string, any>>;
  const byId = (id: number) => tokens.find((token) => token.id === id);

  const expected = jsonAnswers * jsonCost + streamAnswers * streamCost;
  t.match(byId(billed.id), { used_quota: expected, remain_quota: startingQuota - expected }, `the ${jsonAnswers} answers and ${streamAnswers} streams are billed, each once`);
  t.match(byId(renamed.id), { name: 'renamed', remain_quota: 777 }, 'the update is there');
  t.match(byId(disabled.id), { status: 2 }, 'the disabled token is still disabled');
  t.notOk(byId(deleted.id), 'the deleted token is gone');
  t.notOk(byId(batchDeleted.id), 'the batch-deleted token is gone');
  t.match(tokens.find((token) => token.name === 'created last'), { remain_quota: 42 }, 'the token created last is there');
  t.equal(listed.json().data.total, 4, 'and nothing else');
  const models = await restarted.app.inject({ method: 'GET', url: '/v1/models', headers: disabled.bearer });
  t.equal(models.statusCode, 401, 'the disabled token is refused after the restart');
});
