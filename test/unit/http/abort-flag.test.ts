import t from 'tap';
import { AbortFlag } from '../../../core/http/abort-flag.js';
import { Deadline } from '../../../core/http/deadline.js';

t.test('an abort flag runs each listener once, in order, with the reason set', async (t) => {
  const flag = new AbortFlag();
  const heard: string[] = [];
  flag.addEventListener('abort', () => heard.push(`first ${String(flag.aborted)}`));
  flag.addEventListener('abort', () => heard.push('second'));
  t.equal(flag.aborted, false);
  flag.abort('gone');
  flag.abort('again');
  t.same(heard, ['first true', 'second']);
  t.equal(flag.reason, 'gone');
});

t.test('an abort flag without a reason reports an AbortError, as AbortSignal does', async (t) => {
  const flag = new AbortFlag();
  flag.abort();
  t.equal((flag.reason as DOMException).name, 'AbortError');
});

t.test('a removed listener and one added after the abort never run', async (t) => {
  const flag = new AbortFlag();
  let calls = 0;
  const listener = (): void => {
    calls += 1;
  };
  flag.addEventListener('abort', listener);
  flag.removeEventListener('abort', listener);
  flag.abort();
  flag.addEventListener('abort', listener);
  t.equal(calls, 0);
});

t.test('a deadline aborts when the caller aborts, and says the time was not up', async (t) => {
  const caller = new AbortFlag();
  const deadline = new Deadline(60_000, caller);
  let heard = false;
  deadline.signal.addEventListener('abort', () => {
    heard = true;
  });
  caller.abort('client left');
  t.equal(heard, true);
  t.equal(deadline.signal.reason, 'client left');
  t.equal(deadline.expired, false);
  deadline.clear();
});

t.test('a deadline aborts with a TimeoutError when its time is up', async (t) => {
  const deadline = new Deadline(5, new AbortController().signal);
  // The deadline's timer is unref'd (it must not hold a gateway open): this one keeps the test alive.
  const keepAlive = setTimeout(() => {}, 5_000);
  await new Promise<void>((resolve) => deadline.signal.addEventListener('abort', () => resolve()));
  clearTimeout(keepAlive);
  t.equal(deadline.expired, true);
  t.equal((deadline.signal.reason as DOMException).name, 'TimeoutError');
  deadline.clear();
});
