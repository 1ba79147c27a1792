import t from 'tap';
import { loadConfigFile } from '../../core/config/load-config.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { listeningUrl, startCliGateway } from '../helpers/cli-gateway-process.js';
import { chatBody, sseData, startGx, storedToken, streamedText } from '../helpers/gateway-scenario.js';
import { issueProcessToken, processGatewayConfig, usedQuota } from './process-gateway.js';
import { waitUntilRefused } from '../helpers/try-connect.js';
import { readAnswer, type ReadAnswer } from './process-http.js';

// SIGTERM to a real gateway process while requests are in flight: the listener closes at
// once, every request in flight (JSON and streams) finishes whole within
// server.shutdown_grace_ms, each is billed, and the process exits 0.

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

const lastEvent = (body: string): unknown => {
  try {
    return JSON.parse(sseData(body).at(-1) ?? '{}');
  } catch {
    return {};
  }
};

t.test('SIGTERM under load: requests in flight finish, new connections are refused, streams end whole, all is billed', async (t) => {
  const fake = await startGx(t);
  const setup = processGatewayConfig(t, fake.url, { shutdown_grace_ms: 2500 });
  const gateway = startCliGateway(t, setup.file);
  const base = listeningUrl(await gateway.waitForLog(/^Server listening at /));
  const port = Number(new URL(base).port);
  const token = await issueProcessToken(base, setup);
  const slowToken = await issueProcessToken(base, setup);
  const waitingToken = await issueProcessToken(base, setup);
  const chat = (text: string, stream: boolean, bearer = token.bearer) =>
    readAnswer(`${base}/v1/chat/completions`, { headers: bearer, body: chatBody(text, stream ? { stream: true } : {}) });

  // What one request of each kind costs; every request below has a prompt of the same length.
  t.equal((await chat('cost-00', false)).status, 200);
  const jsonCost = await usedQuota(base, setup, token.id);
  t.equal((await chat('cost-00', true)).status, 200);
  await sleep(100);
  const streamCost = (await usedQuota(base, setup, token.id)) - jsonCost;
  t.ok(jsonCost > 0 && streamCost > 0, `a request costs ${jsonCost} units, a stream ${streamCost}`);

  // One stream too slow to finish within the grace, then the load.
  fake.next({ chunkDelayMs: 1000 });
  const slow = chat('a b c d e f g h i j k l m n o p q r s t', true, slowToken.bearer);
  while (fake.requests.length < 3) await sleep(10);
  // And one whose upstream has not answered at all by then.
  fake.next({ stallBeforeHeadersMs: 8000 });
  const waiting = chat('still waiting', false, waitingToken.bearer);
  while (fake.requests.length < 4) await sleep(10);
  const inFlightCount = 8;
  for (let index = 0; index < inFlightCount; index += 1) fake.next({ stallBeforeHeadersMs: 600, chunkDelayMs: 100 });
  const inFlight: Array<{ stream: boolean; text: string; answer: Promise<ReadAnswer> }> = [];
  for (let index = 0; index < inFlightCount; index += 1) {
    const stream = index % 2 === 1;
    const text = `cost-${String(index + 1).padStart(2, '0')}`;
    inFlight.push({ stream, text, answer: chat(text, stream) });
  }
  while (fake.requests.length < 4 + inFlightCount) await sleep(10);

  gateway.child.kill('SIGTERM');
  await gateway.waitForLog(/^stopping/);
  const connection = await waitUntilRefused(port);
  t.equal(connection, 'ECONNREFUSED', 'new connections are refused while the requests in flight finish');
  t.equal(gateway.child.exitCode, null, 'the process waits for them');
  await t.rejects(chat('cost-99', false), { code: 'ECONNREFUSED' }, 'a new request gets no answer');

  for (const { stream, text, answer } of inFlight) {
    const finished = await answer;
    t.equal(finished.status, 200, `${text}: answered`);
    t.equal(finished.ending, 'complete', `${text}: the body ended normally`);
    if (stream) {
      t.equal(streamedText(finished.body), `echo: ${text}`, `${text}: the whole stream`);
      t.equal(sseData(finished.body).at(-1), '[DONE]', `${text}: ending with [DONE]`);
    } else {
      t.equal(JSON.parse(finished.body).choices[0].message.content, `echo: ${text}`, `${text}: the whole answer`);
    }
  }

  const cut = await slow;
  t.equal(cut.status, 200, 'the slow stream had started');
  t.ok(streamedText(cut.body).startsWith('echo: a'), 'and its client got the start of the answer');
  t.equal(cut.ending, 'complete', 'a stream still running when shutdown_grace_ms is over is not cut');
  t.match(lastEvent(cut.body), { error: { code: 'server_shutting_down' } }, 'it ends with an in-band error event that says the gateway is shutting down');

  const unanswered = await waiting;
  t.equal(unanswered.status, 503, 'a request whose upstream had not answered by the deadline gets a 503');
  t.match(JSON.parse(unanswered.body), { error: { code: 'server_shutting_down' } }, 'saying the gateway is shutting down, in its dialect');

  t.equal(await gateway.exited, 0, 'the process exits 0');
  t.ok(gateway.entries().some((entry) => entry.msg === 'stopped'), 'and logs "stopped"');

  const restarted = await buildTestApp(t, 'sqlite', {}, { config: loadConfigFile(setup.file).config });
  const loginToken = setup.asOperator.authorization.slice('Bearer '.length);
  const stored = await storedToken(restarted, { id: token.id, key: '', loginToken, bearer: token.bearer });
  const expected = (1 + inFlightCount / 2) * (jsonCost + streamCost);
  t.equal(stored.used_quota, expected, 'every request in flight was billed once before the exit');
  const slowStored = await storedToken(restarted, { id: slowToken.id, key: '', loginToken, bearer: slowToken.bearer });
  t.ok(slowStored.used_quota > 0, `the part of the slow stream that was sent is billed (${slowStored.used_quota} units)`);
  t.equal(slowStored.used_quota + slowStored.remain_quota, 5_000_000, 'and the rest of its hold given back');
  const waitingStored = await storedToken(restarted, { id: waitingToken.id, key: '', loginToken, bearer: waitingToken.bearer });
  t.match(waitingStored, { used_quota: 0, remain_quota: 5_000_000 }, 'the unanswered request costs nothing');
});
