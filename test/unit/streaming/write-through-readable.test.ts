import { Writable } from 'node:stream';
import { once } from 'node:events';
import t from 'tap';
import { WriteThroughReadable } from '../../../core/streaming/write-through-readable.js';

/** A destination that records each write it is handed: one entry per `write`/`writev` call, as a socket would issue one syscall. */
function recordingDestination(options: { highWaterMark?: number; hold?: boolean } = {}): { destination: Writable; writes: string[][]; release: () => void } {
  const writes: string[][] = [];
  const held: (() => void)[] = [];
  const settle = (callback: () => void) => (options.hold === true ? held.push(callback) : callback());
  const destination = new Writable({
    decodeStrings: false,
    highWaterMark: options.highWaterMark,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push([String(chunk)]);
      settle(callback);
    },
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => String(chunk)));
      settle(callback);
    },
  });
  return { destination, writes, release: () => held.splice(0).forEach((callback) => callback()) };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const readableFor = (onWritable: () => void = () => {}) => new WriteThroughReadable(onWritable, (error, callback) => callback(error));

t.test('what is sent in the turn it is piped, the end included, reaches the destination in one write', async (t) => {
  const readable = readableFor();
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  readable.send('data: one\n\n');
  readable.send('data: two\n\n');
  readable.finish('data: three\n\n');
  await once(destination, 'finish');
  t.same(writes, [['data: one\n\n', 'data: two\n\n', 'data: three\n\n']]);
});

t.test('text sent before the readable is piped leaves with what follows in the same turn', async (t) => {
  const readable = readableFor();
  readable.send('held back while priming');
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await Promise.resolve();
  readable.finish('the end of the upstream');
  await once(destination, 'finish');
  t.same(writes, [['held back while priming', 'the end of the upstream']]);
});

t.test('a stream that finished before it was piped is written whole when the pipe comes', async (t) => {
  const readable = readableFor();
  readable.send('all of it');
  readable.finish('and the end');
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await once(destination, 'finish');
  t.equal(writes.length, 1, 'one write');
  t.equal(writes.flat().join(''), 'all of itand the end');
});

t.test('text sent in later turns is written as it comes, each send one write, so a long stream is not held back', async (t) => {
  const readable = readableFor();
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await nextTurn();
  readable.send('first');
  t.same(writes, [['first']], 'written at once, without waiting for another turn');
  await nextTurn();
  readable.send('second');
  readable.finish();
  await once(destination, 'finish');
  t.same(writes, [['first'], ['second']]);
});

t.test('the readable ends after the destination is ended, as a pipe does', async (t) => {
  const readable = readableFor();
  const { destination } = recordingDestination();
  readable.pipe(destination);
  readable.finish('last');
  await once(readable, 'end');
  t.ok(destination.writableEnded, 'the destination was ended');
});

t.test('a pipe that must not end its destination leaves it open', async (t) => {
  const readable = readableFor();
  const { destination, writes } = recordingDestination();
  readable.pipe(destination, { end: false });
  readable.finish('last');
  await once(readable, 'end');
  t.notOk(destination.writableEnded);
  await nextTurn();
  t.same(writes, [['last']]);
});

t.test('a full destination makes send return false, and its drain calls the writable callback', async (t) => {
  let writable = 0;
  const readable = readableFor(() => writable++);
  const { destination, release } = recordingDestination({ highWaterMark: 4, hold: true });
  readable.pipe(destination);
  await nextTurn();
  const before = writable;
  t.equal(readable.send('more than four'), false, 'the destination is full');
  t.equal(writable, before, 'not writable until it drains');
  const drained = once(destination, 'drain');
  release();
  await drained;
  t.ok(writable > before, 'told once it drained');
});

t.test('text sent before the pipe beyond the high-water mark asks the producer to wait until the pipe comes', async (t) => {
  let writable = 0;
  const readable = readableFor(() => writable++);
  t.equal(readable.send('x'.repeat(readable.readableHighWaterMark)), false);
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await nextTurn();
  await nextTurn();
  t.equal(writable, 1, 'told once the destination took the text');
  readable.finish();
  await once(destination, 'finish');
  t.equal(writes.flat().join('').length, readable.readableHighWaterMark);
});

t.test('nothing is written to a destination that was destroyed', async (t) => {
  const readable = readableFor();
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await nextTurn();
  destination.destroy();
  t.equal(readable.send('too late'), true, 'the producer is not left waiting');
  readable.finish('too late');
  await nextTurn();
  t.same(writes, []);
});

t.test('a readable that is not piped anywhere reads like any other', async (t) => {
  const readable = readableFor();
  readable.send('a');
  readable.send('b');
  const chunks: string[] = [];
  const reading = (async () => {
    for await (const chunk of readable) chunks.push(String(chunk));
  })();
  await nextTurn();
  readable.send('c');
  readable.finish('d');
  await reading;
  t.equal(chunks.join(''), 'abcd');
});
