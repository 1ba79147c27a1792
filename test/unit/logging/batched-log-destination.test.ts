import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import t, { type Test } from 'tap';
import { BatchedLogDestination } from '../../../core/logging/batched-log-destination.js';

type WriteCallback = (error: NodeJS.ErrnoException | null, written: number) => void;

/** The module with `node:fs` writes recorded: `answer` decides what each asynchronous write does. */
async function withRecordedWrites(t: Test, answer: (bytes: Buffer, callback: WriteCallback, call: number) => void) {
  const writes: string[] = [];
  const syncWrites: Array<{ fd: number; text: string }> = [];
  let calls = 0;
  const { BatchedLogDestination: Destination } = await t.mockImport<typeof import('../../../core/logging/batched-log-destination.js')>(
    '../../../core/logging/batched-log-destination.js',
    {
      'node:fs': {
        write: (_fd: number, bytes: Buffer, offset: number, length: number, _position: null, callback: WriteCallback) => {
          const copy = Buffer.from(bytes.subarray(offset, offset + length));
          writes.push(copy.toString());
          answer(copy, callback, calls++);
        },
        writeSync: (fd: number, bytes: Buffer | string) => {
          syncWrites.push({ fd, text: bytes.toString() });
          return typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
        },
      },
    },
  );
  return { Destination, writes, syncWrites };
}

const line = (n: number, width = 40) => `${JSON.stringify({ n, text: 'x'.repeat(width) })}\n`;

t.test('lines reach the file whole and in order once the periodic flush runs', async (t) => {
  const file = join(t.testdir({}), 'out.log');
  const fd = openSync(file, 'w');
  t.teardown(() => closeSync(fd));
  const destination = new BatchedLogDestination({ fd, minLength: 1 << 20, maxWrite: 1 << 20, periodicFlushMilliseconds: 20 });
  t.teardown(() => destination.end());
  const expected = Array.from({ length: 50 }, (_, n) => line(n));
  for (const text of expected) destination.write(text);
  t.equal(readFileSync(file, 'utf8'), '', 'nothing is written before the batch fills or the flush comes');
  await sleep(150);
  t.equal(readFileSync(file, 'utf8'), expected.join(''));
});

t.test('flushSync writes every gathered line at once, for the exit', async (t) => {
  const file = join(t.testdir({}), 'out.log');
  const fd = openSync(file, 'w');
  t.teardown(() => closeSync(fd));
  const destination = new BatchedLogDestination({ fd, minLength: 1 << 20, maxWrite: 256, periodicFlushMilliseconds: 60_000 });
  destination.end();
  const expected = Array.from({ length: 30 }, (_, n) => line(n, n * 7)).concat('{"last":"ünïcödé ✓"}\n');
  for (const text of expected) destination.write(text);
  destination.flushSync();
  t.equal(readFileSync(file, 'utf8'), expected.join(''));
});

t.test('a write starts once minLength bytes are gathered, and never carries more than maxWrite bytes or part of a line', async (t) => {
  const pending: WriteCallback[] = [];
  const { Destination, writes } = await withRecordedWrites(t, (_bytes, callback) => pending.push(callback));
  const destination = new Destination({ fd: 9, minLength: 300, maxWrite: 400, periodicFlushMilliseconds: 60_000 });
  t.teardown(() => destination.end());
  const lines = Array.from({ length: 40 }, (_, n) => line(n, 30 + (n % 5) * 20));
  lines.push(line(99, 900));
  for (const text of lines) destination.write(text);
  t.equal(writes.length, 1, 'one write at a time');
  while (pending.length > 0) {
    const callback = pending.shift()!;
    callback(null, Buffer.byteLength(writes[writes.length - 1]!));
  }
  destination.flushSync();
  const asyncText = writes.join('');
  t.ok(lines.join('').startsWith(asyncText), 'what was written came in order');
  for (const text of writes) {
    t.ok(text.endsWith('\n'), 'each write ends at the end of a line');
    if (Buffer.byteLength(text) > 400) t.equal(text.split('\n').length, 2, 'only a single long line goes over maxWrite');
  }
  t.ok(writes.length > 3, 'the batch was cut into several writes');
});

t.test('the rest of a write a pipe took in part goes out before later lines', async (t) => {
  const pending: Array<{ bytes: Buffer; callback: WriteCallback }> = [];
  const { Destination, writes } = await withRecordedWrites(t, (bytes, callback) => pending.push({ bytes, callback }));
  const destination = new Destination({ fd: 9, minLength: 10, maxWrite: 1000, periodicFlushMilliseconds: 60_000 });
  t.teardown(() => destination.end());
  destination.write(line(1));
  destination.write(line(2));
  const first = pending.shift()!;
  first.callback(null, 10);
  t.equal(writes.length, 2);
  t.equal(writes[1], line(1).slice(10), 'the rest of the first line is written next');
  pending.shift()!.callback(null, writes[1]!.length);
  t.equal(writes[2], line(2));
});

t.test('a full non-blocking pipe (EAGAIN) is written again later, losing and reordering nothing', async (t) => {
  const { Destination, writes } = await withRecordedWrites(t, (bytes, callback, call) => {
    if (call === 0) callback(Object.assign(new Error('resource temporarily unavailable'), { code: 'EAGAIN' }), 0);
    else callback(null, bytes.length);
  });
  const destination = new Destination({ fd: 9, minLength: 10, maxWrite: 1000, periodicFlushMilliseconds: 60_000 });
  t.teardown(() => destination.end());
  destination.write(line(1));
  destination.write(line(2));
  await sleep(50);
  destination.write(line(3));
  await sleep(50);
  t.same(writes, [line(1), line(1), line(2), line(3)], 'the refused write is repeated, then the rest follows in order');
});

t.test('a destination that cannot write stops, says so once on stderr, and never throws into the logger', async (t) => {
  const { Destination, writes, syncWrites } = await withRecordedWrites(t, (_bytes, callback) =>
    callback(Object.assign(new Error('broken pipe'), { code: 'EPIPE' }), 0),
  );
  const destination = new Destination({ fd: 9, minLength: 10, maxWrite: 1000, periodicFlushMilliseconds: 60_000 });
  t.teardown(() => destination.end());
  destination.write(line(1));
  destination.write(line(2));
  destination.flushSync();
  t.equal(writes.length, 1);
  t.same(syncWrites, [{ fd: 2, text: 'the log destination stopped writing: broken pipe\n' }]);
});
