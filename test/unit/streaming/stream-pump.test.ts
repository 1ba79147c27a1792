import t from 'tap';
import type { UpstreamBody } from '../../../core/contracts/provider/upstream-http.js';
import type { StreamDecoder } from '../../../core/contracts/stream-decoder.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { SseSplitter } from '../../../core/streaming/sse-splitter.js';
import { StreamPump, type StreamOutcome } from '../../../core/streaming/stream-pump.js';
import { plainSseEncoder } from '../../helpers/plain-sse-encoder.js';

// The stream pump against an upstream that never stops sending: what happens to the
// stream's settlement when the client stops reading and goes away, or when the gateway
// interrupts it, however the upstream body reacts to the abort.

const encoder = plainSseEncoder;

const decoder: StreamDecoder = {
  push: (frame) => [{ type: 'event', data: frame.data, content: true, outputCharacters: frame.data.length }],
  end: () => [],
};

/** An upstream body of endless 1 KiB events; aborting it makes the pending read fail, or end quietly when `quietOnAbort`. */
function endlessBody(quietOnAbort = false): { body: UpstreamBody; abort: () => void } {
  let aborted = false;
  let wake: (() => void) | undefined;
  const event = Buffer.from(`data: ${'x'.repeat(1024)}\n\n`);
  const body = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (aborted) {
          if (quietOnAbort) return;
          throw new Error('aborted');
        }
        yield event;
        await new Promise<void>((resolve) => {
          wake = resolve;
          setImmediate(resolve);
        });
      }
    },
    text: async () => '',
    json: async () => ({}),
    dump: async () => {},
  } as UpstreamBody;
  return {
    body,
    abort: () => {
      aborted = true;
      wake?.();
    },
  };
}

function pumpOver(upstream: { body: UpstreamBody; abort: () => void }, client: AbortController = new AbortController()) {
  const outcomes: StreamOutcome[] = [];
  const upstreamAbort = new AbortController();
  upstreamAbort.signal.addEventListener('abort', upstream.abort);
  const pump = new StreamPump({
    body: upstream.body,
    splitter: new SseSplitter({ maxEventBytes: 1 << 20 }),
    decoder,
    encoder,
    keepaliveMilliseconds: 60_000,
    upstreamAbort,
    clientSignal: client.signal,
  });
  // `ended` settles once; every outcome it reports is kept, to check there is exactly one.
  void pump.ended.then((outcome) => outcomes.push(outcome));
  return { pump, outcomes };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

t.test('a client that stops reading and then goes away ends the stream once, as aborted, with what was sent', async (t) => {
  const client = new AbortController();
  const { pump, outcomes } = pumpOver(endlessBody(), client);
  t.equal((await pump.prime()).kind, 'content');
  const readable = pump.readable();
  // Nobody reads: the pump fills the buffer and waits for the client.
  await settle();
  t.equal(outcomes.length, 0, 'nothing is over while the client only pauses');
  client.abort();
  readable.destroy();
  await settle();
  t.equal(outcomes.length, 1, 'the stream finished exactly once');
  t.match(outcomes[0], { aborted: true });
  t.ok((outcomes[0]?.outputCharacters ?? 0) > 0, 'with the characters sent so far, for billing');
});

for (const quietOnAbort of [false, true]) {
  t.test(`an interrupted stream ends with the interruption's error event${quietOnAbort ? ', even when the upstream body just ends' : ''}`, async (t) => {
    const { pump, outcomes } = pumpOver(endlessBody(quietOnAbort));
    await pump.prime();
    const readable = pump.readable();
    let text = '';
    readable.on('data', (chunk: Buffer | string) => (text += String(chunk)));
    await settle();
    await pump.interrupt(new GatewayError(503, 'server_shutting_down', 'stopping'));
    t.match(text, /data: \{"error":"server_shutting_down"\}\n\n$/, 'the last event is the error');
    t.notMatch(text, /\[DONE\]/, 'never the normal end');
    t.equal(outcomes.length, 1);
    t.match(outcomes[0], { aborted: false, error: { code: 'server_shutting_down' } });
  });
}

/** An upstream body of the given SSE events, one chunk each, then its end. */
function finiteBody(events: string[]): UpstreamBody {
  return {
    async *[Symbol.asyncIterator]() {
      for (const data of events) yield Buffer.from(`data: ${data}\n\n`);
    },
    text: async () => '',
    json: async () => ({}),
    dump: async () => {},
  } as UpstreamBody;
}

for (const failed of [false, true]) {
  t.test(`an event held before it is sent reaches the client only once its hold ${failed ? 'has failed' : 'is over'}, after everything before it`, async (t) => {
    let release!: () => void;
    let fail!: (error: Error) => void;
    const hold = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    const pump = new StreamPump({
      body: finiteBody(['first', 'second', 'last']),
      splitter: new SseSplitter({ maxEventBytes: 1 << 20 }),
      decoder,
      encoder,
      keepaliveMilliseconds: 60_000,
      upstreamAbort: new AbortController(),
      clientSignal: new AbortController().signal,
      holdBefore: (event) => (event.data === 'last' ? hold : undefined),
    });
    t.equal((await pump.prime()).kind, 'content');
    let text = '';
    pump.readable().on('data', (chunk: Buffer | string) => (text += String(chunk)));
    await settle();
    t.equal(text, 'data: first\n\ndata: second\n\n', 'what came before the held event has gone out; the held event has not');
    if (failed) fail(new Error('the write failed'));
    else release();
    const outcome = await pump.ended;
    t.equal(text, 'data: first\n\ndata: second\n\ndata: last\n\ndata: [DONE]\n\n', 'then it goes out, and the stream ends as usual');
    t.match(outcome, { error: undefined, aborted: false });
  });
}
