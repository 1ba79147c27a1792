import t from 'tap';
import type { UpstreamBody } from '../../../core/contracts/provider/upstream-http.js';
import type { StreamDecoder } from '../../../core/contracts/stream-decoder.js';
import { SseSplitter } from '../../../core/streaming/sse-splitter.js';
import { StreamPump, type StreamOutcome } from '../../../core/streaming/stream-pump.js';
import { plainSseEncoder } from '../../helpers/plain-sse-encoder.js';

// Where a stream commits: at its first event with content. What follows that event is "after
// content" even when it came in the same read, so the outcome is the same however the
// upstream's bytes were chunked: a stream whose content precedes an oversized event starts
// and ends with an in-band error; one whose oversized event comes first fails (over).

const maxEventBytes = 1024;

const encoder = plainSseEncoder;

// `meta` carries no model output; any other data does.
const decoder = (): StreamDecoder => ({
  push: (frame) => [{ type: 'event', data: frame.data, content: frame.data !== 'meta', outputCharacters: frame.data === 'meta' ? 0 : frame.data.length }],
  end: () => [],
});

const oversized = `data: ${'y'.repeat(maxEventBytes + 100)}\n\n`;

/** The same bytes in one read, one read per event, and reads of 7 bytes (cutting every line and blank line). */
function chunkings(text: string): Array<{ name: string; chunks: Buffer[] }> {
  const bytes = Buffer.from(text);
  const events = text.split(/(?<=\n\n)/).map((event) => Buffer.from(event));
  const sevens: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += 7) sevens.push(bytes.subarray(start, start + 7));
  return [
    { name: 'in one read', chunks: [bytes] },
    { name: 'one read per event', chunks: events },
    { name: 'in reads of 7 bytes', chunks: sevens },
  ];
}

function bodyOf(chunks: Buffer[]): UpstreamBody {
  return {
    async *[Symbol.asyncIterator]() {
      yield* chunks;
    },
    text: async () => '',
    json: async () => ({}),
    dump: async () => {},
  } as UpstreamBody;
}

function pumpOver(chunks: Buffer[]) {
  const outcomes: StreamOutcome[] = [];
  const pump = new StreamPump({
    body: bodyOf(chunks),
    splitter: new SseSplitter({ maxEventBytes }),
    decoder: decoder(),
    encoder,
    keepaliveMilliseconds: 60_000,
    upstreamAbort: new AbortController(),
    clientSignal: new AbortController().signal,
  });
  // `ended` settles once; every outcome it reports is kept, to check there is exactly one.
  void pump.ended.then((outcome) => outcomes.push(outcome));
  return { pump, outcomes };
}

async function readAll(pump: StreamPump): Promise<string> {
  let text = '';
  for await (const chunk of pump.readable()) text += String(chunk);
  return text;
}

for (const { name, chunks } of chunkings(`data: meta\n\ndata: partial\n\n${oversized}`)) {
  t.test(`content, then an oversized event, ${name}: the stream starts, delivers the content and ends with the in-band error`, async (t) => {
    const { pump, outcomes } = pumpOver(chunks);
    t.same(await pump.prime(), { kind: 'content' }, 'primed at the first content');
    const text = await readAll(pump);
    t.equal(text, 'data: meta\n\ndata: partial\n\ndata: {"error":"upstream_event_too_large"}\n\n', 'what came before the oversized event, then the error');
    t.equal(outcomes.length, 1);
    t.match(outcomes[0], { error: { code: 'upstream_event_too_large' }, outputCharacters: 'partial'.length, aborted: false }, 'settled on what was delivered');
  });
}

for (const { name, chunks } of chunkings(`data: meta\n\n${oversized}data: partial\n\n`)) {
  t.test(`an oversized event before any content, ${name}: nothing starts and the failure is reported from priming`, async (t) => {
    const { pump } = pumpOver(chunks);
    t.match(await pump.prime(), { kind: 'error', error: { code: 'upstream_event_too_large' } });
  });
}

t.test("the splitter's split() keeps the events completed before an oversized one", async (t) => {
  const splitter = new SseSplitter({ maxEventBytes });
  const frames: Array<{ data: string }> = [];
  t.throws(() => splitter.split(Buffer.from(`data: one\n\ndata: two\n\n${oversized}`), frames), { code: 'upstream_event_too_large' });
  t.same(frames, [{ data: 'one' }, { data: 'two' }]);
});

// A refusal: a `content_filter` output (here beside the `stop` event) and no content before
// the upstream's end. It is read to its end, so it can still be sent whole, or left for a fallback.
const filteringDecoder = (): StreamDecoder => ({
  push: (frame) => {
    const event = { type: 'event' as const, data: frame.data, content: frame.data !== 'meta' && frame.data !== 'stop', outputCharacters: 0 };
    return frame.data === 'stop' ? [event, { type: 'content_filter' as const }] : [event];
  },
  end: () => [],
});

function filteringPump(text: string) {
  return new StreamPump({
    body: bodyOf([Buffer.from(text)]),
    splitter: new SseSplitter({ maxEventBytes }),
    decoder: filteringDecoder(),
    encoder,
    keepaliveMilliseconds: 60_000,
    upstreamAbort: new AbortController(),
    clientSignal: new AbortController().signal,
  });
}

t.test('a content-filter stop before any content primes as refused, read to its end, and can still be sent whole', async (t) => {
  const pump = filteringPump('data: meta\n\ndata: stop\n\ndata: meta\n\n');
  t.equal((await pump.prime()).kind, 'refused');
  const text = await readAll(pump);
  t.match(text, /data: meta\n\ndata: stop\n\ndata: meta\n\n/, 'the refusal as the upstream sent it, when no fallback takes it');
  const outcome = await pump.ended;
  t.equal(outcome.error, undefined);
});

t.test('a content-filter stop after content commits the stream as content', async (t) => {
  const pump = filteringPump('data: meta\n\ndata: hello\n\ndata: stop\n\n');
  t.equal((await pump.prime()).kind, 'content');
});

t.test('a stream without a content-filter stop and without content primes as ended, not refused', async (t) => {
  const pump = filteringPump('data: meta\n\ndata: meta\n\n');
  t.equal((await pump.prime()).kind, 'ended');
});
