import { Writable } from 'node:stream';
import { once } from 'node:events';
import t from 'tap';
import { TurnCorkedReadable } from '../../../core/streaming/turn-corked-readable.js';

/** A destination that records each write it is handed: one entry per `write`/`writev` call, as a socket would issue one syscall. */
function recordingDestination(): { destination: Writable; writes: string[][] } {
  const writes: string[][] = [];
  const destination = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      writes.push([String(chunk)]);
      callback();
    },
    writev(chunks, callback) {
      writes.push(chunks.map(({ chunk }) => String(chunk)));
      callback();
    },
  });
  return { destination, writes };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('what is pushed in one turn, the end included, reaches the destination in one write', async (t) => {
  const readable = new TurnCorkedReadable({ read() {} });
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await nextTurn();
  readable.push('data: one\n\n');
  readable.push('data: two\n\n');
  readable.push(null);
  await once(destination, 'finish');
  t.same(writes, [['data: one\n\n', 'data: two\n\n']]);
});

t.test('text pushed before the readable is piped leaves with what follows in the same turn', async (t) => {
  const readable = new TurnCorkedReadable({ read() {} });
  readable.push('held back while priming');
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await Promise.resolve();
  readable.push('the end of the upstream');
  readable.push(null);
  await once(destination, 'finish');
  t.same(writes, [['held back while priming', 'the end of the upstream']]);
});

t.test('pushes in different turns are written as they come, so a long stream is not held back', async (t) => {
  const readable = new TurnCorkedReadable({ read() {} });
  const { destination, writes } = recordingDestination();
  readable.pipe(destination);
  await nextTurn();
  readable.push('first');
  await nextTurn();
  await nextTurn();
  t.same(writes, [['first']], 'the first push is written within the next turn, before any later push');
  readable.push('second');
  readable.push(null);
  await once(destination, 'finish');
  t.same(writes, [['first'], ['second']]);
});

t.test('a readable that is not piped anywhere reads like any other', async (t) => {
  const readable = new TurnCorkedReadable({ read() {} });
  readable.push('a');
  readable.push('b');
  readable.push(null);
  const chunks: string[] = [];
  for await (const chunk of readable) chunks.push(String(chunk));
  t.equal(chunks.join(''), 'ab');
});
