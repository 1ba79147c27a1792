import t from 'tap';
import { IdleHeapRelease } from '../../../server/idle-heap-release.js';

const mebibytes = 2 ** 20;

/** A release whose readings come from the lists given, one per check. */
function scripted(utilizations: number[], heapMebibytes: number[] = []) {
  let check = 0;
  let heap = 40 * mebibytes;
  const collections: number[] = [];
  const release = new IdleHeapRelease({
    utilization: () => utilizations[check] ?? 0,
    heapUsed: () => heap,
    collect: () => {
      collections.push(check);
      heap = 40 * mebibytes;
    },
    checkMilliseconds: 1000,
  });
  const run = () => {
    for (check = 0; check < utilizations.length; check += 1) {
      heap = (heapMebibytes[check] ?? 200) * mebibytes;
      release.check();
    }
    return collections;
  };
  return { run };
}

t.test('a process that was busy and then quiet for two checks is collected once', async (t) => {
  t.strictSame(scripted([0.6, 0.5, 0.01, 0.01, 0.0, 0.0, 0.01]).run(), [3]);
});

t.test('it is collected again only after another busy spell', async (t) => {
  t.strictSame(scripted([0.6, 0.01, 0.01, 0.01, 0.7, 0.01, 0.01]).run(), [2, 6]);
});

t.test('a process that stays busy, or was never busy, is not collected', async (t) => {
  t.strictSame(scripted([0.5, 0.6, 0.4, 0.9, 0.3]).run(), []);
  t.strictSame(scripted([0.01, 0.0, 0.01, 0.0]).run(), []);
});

t.test('light traffic between the quiet checks postpones the collection', async (t) => {
  t.strictSame(scripted([0.6, 0.01, 0.05, 0.01, 0.01]).run(), [4]);
});

t.test('a heap that grew less than 16 MiB since the last collection is left alone', async (t) => {
  t.strictSame(scripted([0.6, 0.01, 0.01], [41, 45, 50]).run(), []);
});

t.test("with the process's own parts, a collection returns the garbage of a busy spell", async (t) => {
  const readings = [0.9, 0, 0];
  const release = new IdleHeapRelease({ utilization: () => readings.shift() ?? 0 });
  let garbage: Array<{ index: number; text: string }> | undefined = Array.from({ length: 400_000 }, (_, index) => ({ index, text: `garbage ${index}` }));
  t.equal(garbage.length, 400_000);
  garbage = undefined;
  const before = process.memoryUsage().heapUsed;
  t.equal(release.check(), false, 'busy');
  t.equal(release.check(), false, 'quiet once');
  t.equal(release.check(), true, 'quiet twice: collected');
  const after = process.memoryUsage().heapUsed;
  t.ok(after < before - 16 * mebibytes, `the heap in use fell from ${Math.round(before / mebibytes)} MiB to ${Math.round(after / mebibytes)} MiB`);
});
