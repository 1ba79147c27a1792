import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { chatBody, gxChannel, issueToken, scenarioGateway, sseData, startGx, streamedText } from '../helpers/gateway-scenario.js';

// One gateway process, saturated: a few hundred paced streams (an event every 25 ms, as a
// model sends tokens), a few firehose streams whose upstream sends thousands of events at
// once, and a timer that burns most of every turn of the event loop, as other work on a full
// core would. Fairness is then an ordering, not a speed: whatever the machine, no paced stream
// may wait much longer between two events than the streams typically do, which is what a
// stream monopolising the loop (a synchronous pass over a long upstream backlog, a read loop
// that never yields) would break.

const pacedStreams = 160;
const pacedWords = 30;
const paceMilliseconds = 25;
const firehoseStreams = 4;
const firehoseWords = 4000;
/**
 * How much longer than the streams' typical (median) gap the worst gap of any paced stream may
 * be. Fair runs stay under 10× (admission bursts, GC); a stream held up for most of a second
 * while the others run is past it on any machine, as the typical gap grows with the machine's slowness too.
 */
const worstGapRatio = 20;

/** What a client saw of one stream: its body, and when each piece of it arrived. */
interface ReadStream {
  status: number;
  body: string;
  arrivals: number[];
}

function readStream(url: string, headers: Record<string, string>, body: unknown): Promise<ReadStream> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } });
    sent.on('error', reject);
    sent.on('response', (response) => {
      const arrivals: number[] = [];
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        arrivals.push(performance.now());
        text += chunk;
      });
      response.on('error', reject);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, arrivals }));
    });
    sent.end(payload);
  });
}

/**
 * A firehose's upstream body: thousands of gx events, written in a few large pieces as an
 * upstream that is far ahead of the gateway would land them (a backlog of many events per
 * read). Prebuilt, so the fake, which shares the process, spends nothing on them per event.
 */
function firehoseBody(): string[] {
  const event = (text: string) => `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }] })}\r\n\r\n`;
  const events = words('f', firehoseWords)
    .split(/(?<= )/)
    .map((word) => event(word));
  events.push(
    `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 4, candidatesTokenCount: firehoseWords, totalTokenCount: firehoseWords + 4 } })}\r\n\r\n`,
  );
  const pieces: string[] = [];
  for (let start = 0; start < events.length; start += 250) pieces.push(events.slice(start, start + 250).join(''));
  return pieces;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const words = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');

t.test('when one process is saturated, every open stream keeps getting its events in turn and completes', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway);
  await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(gateway.app.server.address() as AddressInfo).port}/v1/chat/completions`;

  // Other work on the same core: 4 ms of every 5 spent elsewhere, in turns of its own.
  const pressure = setInterval(() => {
    const until = performance.now() + 4;
    while (performance.now() < until);
  }, 5);
  t.teardown(() => clearInterval(pressure));
  const utilizationBefore = performance.eventLoopUtilization();

  for (let index = 0; index < pacedStreams; index += 1) fake.next({ chunkDelayMs: paceMilliseconds });
  const paced = Array.from({ length: pacedStreams }, (_, index) => readStream(url, token.bearer, chatBody(words(`p${index}w`, pacedWords), { stream: true })));
  // The fake hands out behaviours in the order requests reach it: the firehoses are sent
  // once every paced request has taken its pacing.
  while (fake.requests.length < pacedStreams) await new Promise((resolve) => setTimeout(resolve, 5));
  for (let index = 0; index < firehoseStreams; index += 1) fake.next({ rawSse: firehoseBody() });
  const firehoses = Array.from({ length: firehoseStreams }, () => readStream(url, token.bearer, chatBody('send it all at once', { stream: true })));
  const pacedRead = await Promise.all(paced);
  const firehoseRead = await Promise.all(firehoses);
  const utilization = performance.eventLoopUtilization(utilizationBefore).utilization;
  clearInterval(pressure);

  t.ok(utilization > 0.9, `the process was saturated: its event loop was busy ${Math.round(utilization * 100)}% of the time`);
  const whole = (read: ReadStream, prefix: string, count: number) => read.status === 200 && sseData(read.body).at(-1) === '[DONE]' && streamedText(read.body) === `echo: ${words(prefix, count)}`;
  t.ok(
    pacedRead.every((read, index) => whole(read, `p${index}w`, pacedWords)),
    `all ${pacedStreams} paced streams completed, every event in order`,
  );
  t.ok(
    firehoseRead.every((read) => read.status === 200 && sseData(read.body).at(-1) === '[DONE]' && streamedText(read.body) === words('f', firehoseWords)),
    `all ${firehoseStreams} firehose streams completed`,
  );

  const gaps = pacedRead.map((read) => read.arrivals.slice(1).map((arrival, index) => arrival - read.arrivals[index]!));
  const typicalGap = median(gaps.flat());
  const worstGaps = gaps.map((streamGaps) => Math.max(0, ...streamGaps));
  const worstGap = Math.max(...worstGaps);
  t.comment(`typical gap ${typicalGap.toFixed(1)} ms, median worst gap per stream ${median(worstGaps).toFixed(1)} ms, worst gap ${worstGap.toFixed(1)} ms`);
  t.ok(worstGap <= worstGapRatio * typicalGap, `no paced stream waited more than ${worstGapRatio} times the typical gap between two events (worst ${(worstGap / typicalGap).toFixed(1)}×)`);
});
