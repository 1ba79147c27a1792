import { readFileSync } from 'node:fs';
import t from 'tap';
import type { SseFrame } from '../../../core/contracts/stream-decoder.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { SseSplitter } from '../../../core/streaming/sse-splitter.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gx/${name}`, import.meta.url));
const bytes = (text: string) => Buffer.from(text, 'utf8');

/** Feeds the pieces in order, then ends the stream; returns every frame. */
function split(pieces: Uint8Array[], splitter = new SseSplitter()): SseFrame[] {
  const frames: SseFrame[] = [];
  for (const piece of pieces) frames.push(...splitter.push(piece));
  frames.push(...splitter.end());
  return frames;
}

/** The input cut at the given byte offsets. */
function cut(input: Buffer, offsets: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  let start = 0;
  for (const offset of offsets) {
    pieces.push(input.subarray(start, offset));
    start = offset;
  }
  pieces.push(input.subarray(start));
  return pieces;
}

/** A small seeded generator (mulberry32), so a failing case can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

t.test('an event ends at a blank line, with LF, CRLF or CR line endings', async (t) => {
  for (const ending of ['\n', '\r\n', '\r']) {
    const input = `data: one${ending}${ending}data: two${ending}${ending}`;
    t.same(split([bytes(input)]), [{ data: 'one' }, { data: 'two' }], JSON.stringify(ending));
  }
});

t.test('an event is returned by the push that completes it, not held until end()', async (t) => {
  const splitter = new SseSplitter();
  t.same(splitter.push(bytes('data: one\r\n')), []);
  t.same(splitter.push(bytes('\r\ndata: two')), [{ data: 'one' }]);
  t.same(splitter.end(), [{ data: 'two' }]);
});

t.test('several data lines are joined with a line feed', async (t) => {
  t.same(split([bytes('data: first\ndata:\ndata: third\n\n')]), [{ data: 'first\n\nthird' }]);
});

t.test('event and id fields ride on the frame they belong to', async (t) => {
  const input = 'event: response.created\nid: 7\ndata: {"a":1}\n\ndata: plain\n\n';
  t.same(split([bytes(input)]), [{ event: 'response.created', id: '7', data: '{"a":1}' }, { data: 'plain' }]);
});

t.test('comment lines, retry and unknown fields are ignored', async (t) => {
  const input = ': ping\n\n:\nretry: 1000\nfoo: bar\ndata: kept\n: inside\n\n';
  t.same(split([bytes(input)]), [{ data: 'kept' }]);
});

t.test('only one space after the colon is dropped', async (t) => {
  t.same(split([bytes('data:tight\n\ndata:  two spaces\n\nevent:x\ndata:\t tab\n\n')]), [
    { data: 'tight' },
    { data: ' two spaces' },
    { event: 'x', data: '\t tab' },
  ]);
});

t.test('a field line without a colon is that field with an empty value', async (t) => {
  t.same(split([bytes('data\n\ndata\ndata\n\n')]), [{ data: '' }, { data: '\n' }]);
});

t.test('an event without data is dropped, even with an event name', async (t) => {
  t.same(split([bytes('event: ping\n\nid: 3\n\n\n\n\ndata: real\n\n')]), [{ data: 'real' }]);
});

t.test('an empty event name is left out of the frame', async (t) => {
  t.same(split([bytes('event:\ndata: x\n\n')]), [{ data: 'x' }]);
});

t.test('an id containing NUL is ignored', async (t) => {
  t.same(split([bytes('id: a\u0000b\ndata: x\n\n')]), [{ data: 'x' }]);
});

t.test('a final event without its blank line is delivered by end()', async (t) => {
  t.same(split([bytes('data: one\n\ndata: last')]), [{ data: 'one' }, { data: 'last' }]);
  t.same(split([bytes('data: one\n\ndata: last\r\n')]), [{ data: 'one' }, { data: 'last' }]);
});

t.test('end() resets the splitter, so nothing carries over to the next stream', async (t) => {
  const splitter = new SseSplitter();
  splitter.push(bytes('event: stale\nid: 1\ndata: a'));
  t.same(splitter.end(), [{ event: 'stale', id: '1', data: 'a' }]);
  t.same(split([bytes('data: fresh\n\n')], splitter), [{ data: 'fresh' }]);
  t.same(splitter.end(), []);
});

t.test('a CRLF split between CR and LF is one line ending, not two', async (t) => {
  t.same(split([bytes('data: a\r'), bytes('\ndata: b\r'), bytes('\n\r'), bytes('\n')]), [{ data: 'a\nb' }]);
  t.same(split([bytes('data: a\r'), bytes(''), bytes('\n'), bytes('\r\n')]), [{ data: 'a' }]);
});

t.test('a lone CR at the end of a chunk ends the line at once', async (t) => {
  const splitter = new SseSplitter();
  t.same(splitter.push(bytes('data: a\r\r')), [{ data: 'a' }]);
  t.same(splitter.push(bytes('data: b\r\r')), [{ data: 'b' }]);
});

t.test('a UTF-8 byte order mark before the first line is skipped', async (t) => {
  t.same(split([Buffer.from([0xef, 0xbb]), Buffer.from([0xbf]), bytes('data: x\n\n')]), [{ data: 'x' }]);
});

t.test('a multi-byte character split across chunks is decoded whole', async (t) => {
  const input = bytes('event: é\ndata: ça 😀 中文\n\n');
  for (let offset = 0; offset <= input.length; offset += 1) {
    t.same(split(cut(input, [offset])), [{ event: 'é', data: 'ça 😀 中文' }], `cut at ${offset}`);
  }
});

t.test('accepts plain Uint8Array chunks as well as Buffers', async (t) => {
  const encoded = new TextEncoder().encode('xxdata: z\n\n').subarray(2);
  t.same(split([encoded]), [{ data: 'z' }]);
});

t.test('the recorded single-event gx stream splits the same at every byte offset', async (t) => {
  const input = fixture('gemini-stream-single-chunk.raw.sse');
  const whole = split([input]);
  t.equal(whole.length, 1);
  const event = JSON.parse(whole[0]!.data);
  t.equal(event.candidates[0].content.parts[0].text, '1, 2, 3');
  t.equal(event.candidates[0].finishReason, 'STOP');
  for (let offset = 0; offset <= input.length; offset += 1) {
    t.same(split(cut(input, [offset])), whole, `cut at ${offset}`);
  }
});

t.test('the recorded multi-event gx stream splits the same at every byte offset', async (t) => {
  const input = fixture('gemini-stream-multi-chunk.sse');
  const expected = input
    .toString('utf8')
    .split('\r\n\r\n')
    .filter((event) => event !== '')
    .map((event) => ({ data: event.slice('data: '.length) }));
  t.equal(expected.length, 4);
  t.same(split([input]), expected);
  let mismatches = 0;
  for (let offset = 0; offset <= input.length; offset += 1) {
    const frames = split(cut(input, [offset]));
    if (JSON.stringify(frames) !== JSON.stringify(expected)) mismatches += 1;
  }
  t.equal(mismatches, 0, 'no cut offset changes the frames');
  const usage = expected.map((frame) => JSON.parse(frame.data).usageMetadata.candidatesTokenCount);
  t.same(usage, [49, 97, 146, 5947], 'usage is cumulative on every event');
});

t.test('the recorded multi-event gx stream splits the same one byte at a time', async (t) => {
  const input = fixture('gemini-stream-multi-chunk.sse');
  const pieces = [...input].map((byte) => Buffer.from([byte]));
  t.same(split(pieces), split([input]));
});

t.test('random streams split at random offsets give the frames they were built from (seeded)', async (t) => {
  const random = seededRandom(20_260_821);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = ['a', 'text', ' lead', 'trail ', 'é', '😀', '中文', '{"k": [1,2]}', ':colon', 'data: nested', ''];
  const endings = ['\n', '\r\n', '\r'] as const;

  for (let round = 0; round < 500; round += 1) {
    const lines: string[] = [];
    const expected: SseFrame[] = [];
    const eventCount = 1 + Math.floor(random() * 6);
    for (let index = 0; index < eventCount; index += 1) {
      if (random() < 0.3) lines.push(`:${pick(words)}`);
      const event = random() < 0.4 ? `name${index}` : undefined;
      const id = random() < 0.3 ? String(index) : undefined;
      if (event !== undefined) lines.push(`event: ${event}`);
      if (id !== undefined) lines.push(`id:${id}`);
      const dataLines: string[] = [];
      const dataCount = Math.floor(random() * 4);
      for (let line = 0; line < dataCount; line += 1) {
        const value = pick(words) + pick(words);
        dataLines.push(value);
        lines.push(value.startsWith(' ') || random() < 0.7 ? `data: ${value}` : `data:${value}`);
      }
      if (dataLines.length > 0) {
        const frame: SseFrame = { data: dataLines.join('\n') };
        if (event !== undefined) frame.event = event;
        if (id !== undefined) frame.id = id;
        expected.push(frame);
      }
      const last = index === eventCount - 1;
      if (!last || random() < 0.7) lines.push('');
    }
    let text = '';
    let previousEnding = '';
    for (const line of lines) {
      // A CR followed by an LF would read as one CRLF, so a blank line after CR avoids LF.
      const ending = line === '' && previousEnding === '\r' ? pick(['\r', '\r\n']) : pick(endings);
      text += line + ending;
      previousEnding = ending;
    }
    const input = bytes(text);
    const offsets = Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * (input.length + 1))).sort(
      (left, right) => left - right,
    );
    const frames = split(cut(input, offsets));
    if (JSON.stringify(frames) !== JSON.stringify(expected)) {
      t.same(frames, expected, `round ${round}: ${JSON.stringify(text)} cut at ${offsets.join(',')}`);
      return;
    }
  }
  t.pass('500 random streams split correctly');
});

t.test('an event larger than maxEventBytes throws upstream_event_too_large', async (t) => {
  const splitter = new SseSplitter({ maxEventBytes: 64 });
  const error = t.throws(() => splitter.push(bytes(`data: ${'x'.repeat(100)}\n\n`))) as unknown;
  t.ok(GatewayError.is(error));
  t.match(error, { statusCode: 502, code: 'upstream_event_too_large', retryable: false, message: /64 bytes/ });
});

t.test('an event spread over several data lines counts all of them toward the limit', async (t) => {
  const splitter = new SseSplitter({ maxEventBytes: 64 });
  t.same(splitter.push(bytes(`data: ${'x'.repeat(20)}\ndata: ${'x'.repeat(20)}\n`)), []);
  t.throws(() => splitter.push(bytes(`data: ${'x'.repeat(20)}\n`)), { code: 'upstream_event_too_large' });
});

t.test('a partial event that keeps growing without a line ending is cut off at the limit', async (t) => {
  const splitter = new SseSplitter({ maxEventBytes: 1024 });
  t.same(splitter.push(bytes('data: ')), []);
  let thrown: unknown;
  let received = 6;
  try {
    for (let index = 0; index < 100; index += 1) {
      splitter.push(bytes('y'.repeat(100)));
      received += 100;
    }
  } catch (error) {
    thrown = error;
  }
  t.match(thrown, { code: 'upstream_event_too_large' });
  t.ok(received <= 1024, `stopped after ${received} buffered bytes`);
});

t.test('many events adding up to more than the limit are fine, each one is under it', async (t) => {
  const splitter = new SseSplitter({ maxEventBytes: 64 });
  const frames = split([bytes(`data: ${'z'.repeat(50)}\n\n`.repeat(100))], splitter);
  t.equal(frames.length, 100);
});

t.test('an event exactly at the limit passes', async (t) => {
  const line = `data: ${'q'.repeat(58)}`;
  t.equal(line.length, 64);
  t.same(split([bytes(`${line}\n\n`)], new SseSplitter({ maxEventBytes: 64 })), [{ data: 'q'.repeat(58) }]);
});

t.test('after throwing, the splitter starts clean', async (t) => {
  const splitter = new SseSplitter({ maxEventBytes: 16 });
  t.throws(() => splitter.push(bytes('event: big\ndata: 0123456789abcdef')));
  t.same(split([bytes('data: small\n\n')], splitter), [{ data: 'small' }]);
});
