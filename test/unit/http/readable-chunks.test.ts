import { PassThrough, Readable } from 'node:stream';
import t from 'tap';
import { readableChunks } from '../../../core/http/readable-chunks.js';

const mapped = (error: unknown) => new Error(`mapped: ${(error as Error).message}`);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

t.test('chunks come in order, what arrived while nobody asked joined into one, then the end', async (t) => {
  const body = new PassThrough();
  const chunks = readableChunks(body, mapped);
  body.write('one ');
  const first = await chunks.next();
  t.equal(String(first.value), 'one ');
  body.write('two ');
  body.write('three');
  await nextTurn();
  const joined = await chunks.next();
  t.equal(String(joined.value), 'two three', 'what waited is taken in one piece');
  body.end();
  t.same(await chunks.next(), { done: true, value: undefined });
});

t.test('a reader waiting for a chunk gets it when it comes', async (t) => {
  const body = new PassThrough();
  const chunks = readableChunks(body, mapped);
  const waiting = chunks.next();
  body.write('late');
  t.equal(String((await waiting).value), 'late');
});

t.test('a body that fails rejects with the mapped error, also after its chunks were taken', async (t) => {
  const body = new PassThrough();
  const chunks = readableChunks(body, mapped);
  body.write('some');
  await nextTurn();
  body.destroy(new Error('reset'));
  t.equal(String((await chunks.next()).value), 'some');
  await t.rejects(chunks.next(), { message: 'mapped: reset' });
});

t.test('a body closed before its end fails as a premature close', async (t) => {
  const body = new PassThrough();
  const chunks = readableChunks(body, mapped);
  body.destroy();
  await t.rejects(chunks.next(), { message: /mapped: .*premature close/i });
});

t.test('return destroys the body', async (t) => {
  const body = new PassThrough();
  const chunks = readableChunks(body, mapped);
  t.same(await chunks.return?.(), { done: true, value: undefined });
  t.ok(body.destroyed);
});

t.test('a reader that stops asking pauses the body once a bounded amount waits, and resumes it when it asks again', async (t) => {
  let produced = 0;
  const piece = Buffer.alloc(16 * 1024, 0x61);
  const body = new Readable({
    read() {
      produced += piece.length;
      this.push(produced > 4 * 1024 * 1024 ? null : piece);
    },
  });
  const chunks = readableChunks(body, mapped);
  for (let turn = 0; turn < 20; turn++) await nextTurn();
  t.ok(produced < 512 * 1024, `the body was paused after ${produced} bytes, not read to its end`);
  let taken = 0;
  for (;;) {
    const next = await chunks.next();
    if (next.done === true) break;
    taken += next.value.byteLength;
  }
  t.equal(taken, 4 * 1024 * 1024, 'everything is delivered once the reader asks again');
});
