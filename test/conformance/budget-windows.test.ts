import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { BudgetClaim, BudgetWindow, StoreEntry } from '../../core/store/store-backend.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

const day = 24 * 60 * 60 * 1000;

for (const driver of storageDrivers) {
  t.test(`the ${driver} store's budget windows`, async (t) => {
    const storage = storageFor(t, driver);
    const backend = await createStoreBackend(storage);
    t.teardown(() => backend.close());
    const lease = (id: string, leaseMilliseconds = 60_000) => ({ id: `${driver}-${id}`, owner: 'instance-a', leaseMilliseconds });
    const window = (key: string, limit: number, hard = true, endsAt = Date.now() + day): BudgetWindow => ({ key, limit, hard, endsAt });
    const claim = (windows: BudgetWindow[], unlimited = false): BudgetClaim => ({ windows, unlimited });
    const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

    t.test('a hard window refuses a reservation that does not fit and leaves the quota and every window as they were', async (t) => {
      await backend.writeRemaining('budget:refused', 1000);
      const windows = [window('token:1:daily:a', 100), window('user:1:monthly:a', 50)];
      t.same(await backend.reserve('budget:refused', 40, lease('refused-1'), claim(windows)), { granted: true, remain: 960, budget: { used: [40, 40] } });
      t.same(await backend.reserve('budget:refused', 20, lease('refused-2'), claim(windows)), { granted: false, remain: 960, budget: { refused: 1, used: 40 } }, 'the monthly window has 10 left');
      t.same((await backend.readBalances(['budget:refused'])).get('budget:refused'), { remain: 960, used: 0 });
      t.same(await backend.readBudgetWindows(['token:1:daily:a', 'user:1:monthly:a', 'missing']), new Map([['token:1:daily:a', 40], ['user:1:monthly:a', 40]]));
      t.same(await backend.reserve('budget:refused', 10, lease('refused-3'), claim(windows)), { granted: true, remain: 950, budget: { used: [50, 50] } }, 'what is left still fits');
    });

    t.test('a reservation the quota refuses counts nothing in the windows', async (t) => {
      await backend.writeRemaining('budget:poor', 5);
      t.same(await backend.reserve('budget:poor', 10, lease('poor'), claim([window('token:2:daily:a', 100)])), { granted: false, remain: 5 });
      t.same(await backend.readBudgetWindows(['token:2:daily:a']), new Map());
    });

    t.test('a settlement moves the windows to what was charged, and a refund gives the whole hold back to them', async (t) => {
      await backend.writeRemaining('budget:settle', 1000);
      const windows = [window('token:3:daily:a', 100), window('token:3:weekly:a', 500)];
      await backend.reserve('budget:settle', 30, lease('settle-1'), claim(windows));
      await backend.reserve('budget:settle', 20, lease('settle-2'), claim(windows));
      t.same(await backend.settle('budget:settle', 30, 12, `${driver}-settle-1`, { budget: true }), { remain: 968, used: 12, charged: 12, held: true });
      t.same(await backend.readBudgetWindows(['token:3:daily:a', 'token:3:weekly:a']), new Map([['token:3:daily:a', 32], ['token:3:weekly:a', 32]]));
      t.same(await backend.settle('budget:settle', 20, 0, `${driver}-settle-2`, { budget: true }), { remain: 988, used: 12, charged: 0, held: true });
      t.same(await backend.readBudgetWindows(['token:3:daily:a', 'token:3:weekly:a']), new Map([['token:3:daily:a', 12], ['token:3:weekly:a', 12]]));
      t.same(await backend.settle('budget:settle', 20, 0, `${driver}-settle-2`, { budget: true }), { remain: 988, used: 12, charged: 0, held: false }, 'a second settlement moves nothing');
      t.same(await backend.readBudgetWindows(['token:3:daily:a']), new Map([['token:3:daily:a', 12]]));
    });

    t.test('a settlement after a reset corrects the window the request was counted in, not the new one', async (t) => {
      await backend.writeRemaining('budget:reset', 1000);
      await backend.reserve('budget:reset', 50, lease('reset-old'), claim([window('token:4:daily:day-1', 60)]));
      // The period turned: the next request counts in the next day's window.
      t.same(await backend.reserve('budget:reset', 50, lease('reset-new'), claim([window('token:4:daily:day-2', 60)])), { granted: true, remain: 900, budget: { used: [50] } });
      await backend.settle('budget:reset', 50, 20, `${driver}-reset-old`, { budget: true });
      t.same(await backend.readBudgetWindows(['token:4:daily:day-1', 'token:4:daily:day-2']), new Map([['token:4:daily:day-1', 20], ['token:4:daily:day-2', 50]]));
    });

    t.test('a soft window counts past its limit and refuses nothing', async (t) => {
      await backend.writeRemaining('budget:soft', 1000);
      const windows = [window('token:5:daily:a', 10, false)];
      t.same(await backend.reserve('budget:soft', 8, lease('soft-1'), claim(windows)), { granted: true, remain: 992, budget: { used: [8] } });
      t.same(await backend.reserve('budget:soft', 8, lease('soft-2'), claim(windows)), { granted: true, remain: 984, budget: { used: [16] } }, 'the caller sees the window passed its limit');
    });

    t.test('an unlimited token counts in its windows without a balance to take from', async (t) => {
      const windows = [window('token:6:daily:a', 25)];
      t.same(await backend.reserve('budget:unlimited', 20, lease('unlimited-1'), claim(windows, true)), { granted: true, remain: 0, budget: { used: [20] } });
      t.same(await backend.reserve('budget:unlimited', 20, lease('unlimited-2'), claim(windows, true)), { granted: false, remain: 0, budget: { refused: 0, used: 20 } });
      await backend.writeRemaining('budget:unlimited-balance', 7);
      await backend.reserve('budget:unlimited-balance', 5, lease('unlimited-3'), claim([window('token:7:daily:a', 100)], true));
      t.same(
        await backend.settle('budget:unlimited-balance', 5, 30, `${driver}-unlimited-3`, { budget: true, unlimited: true }),
        { remain: 7, used: 30, charged: 30, held: true },
        'the whole cost is counted as used and the remaining units are left alone',
      );
      t.same(await backend.readBudgetWindows(['token:7:daily:a']), new Map([['token:7:daily:a', 30]]));
    });

    t.test('the sweeper gives an expired hold back to its windows as to its quota, once', async (t) => {
      await backend.writeRemaining('budget:swept', 100);
      await backend.reserve('budget:swept', 30, lease('swept', 30), claim([window('token:8:daily:a', 40)]));
      await pause(80);
      const sweeps = await Promise.all([backend.sweepHolds(100), backend.sweepHolds(100)]);
      t.same(sweeps.flat().filter((hold) => hold.account === 'budget:swept'), [{ id: `${driver}-swept`, account: 'budget:swept', units: 30 }]);
      t.same((await backend.readBalances(['budget:swept'])).get('budget:swept'), { remain: 100, used: 0 });
      t.same(await backend.readBudgetWindows(['token:8:daily:a']), new Map([['token:8:daily:a', 0]]));
      t.same(await backend.settle('budget:swept', 30, 10, `${driver}-swept`, { budget: true }), { remain: 90, used: 10, charged: 10, held: false }, 'a late settlement gives nothing back again');
      t.same(await backend.readBudgetWindows(['token:8:daily:a']), new Map([['token:8:daily:a', 0]]));
    });

    t.test("a detached hold (a video task's) keeps its windows counted past its lease, and its settlement corrects them", async (t) => {
      await backend.writeRemaining('budget:task', 1000);
      await backend.reserve('budget:task', 60, lease('task', 30), claim([window('user:15:monthly:a', 100)]));
      t.equal(await backend.detachHold(`${driver}-task`), true);
      await pause(80);
      t.same((await backend.sweepHolds(100)).filter((hold) => hold.account === 'budget:task'), [], 'no sweeper returns it');
      t.same(await backend.readBudgetWindows(['user:15:monthly:a']), new Map([['user:15:monthly:a', 60]]));
      t.same(await backend.settle('budget:task', 60, 45, `${driver}-task`, { budget: true }), { remain: 955, used: 45, charged: 45, held: true });
      t.same(await backend.readBudgetWindows(['user:15:monthly:a']), new Map([['user:15:monthly:a', 45]]));
    });

    t.test('grants exactly 20 of 200 parallel reservations against a window that fits 20', async (t) => {
      await backend.writeRemaining('budget:race', 100_000);
      const windows = [window('token:9:daily:a', 20), window('user:9:daily:a', 1000)];
      const results = await Promise.all(Array.from({ length: 200 }, (_, index) => backend.reserve('budget:race', 1, lease(`race-${index}`), claim(windows))));
      t.equal(results.filter((result) => result.granted).length, 20);
      t.same(await backend.readBudgetWindows(['token:9:daily:a', 'user:9:daily:a']), new Map([['token:9:daily:a', 20], ['user:9:daily:a', 20]]));
      t.same((await backend.readBalances(['budget:race'])).get('budget:race'), { remain: 99_980, used: 0 });
    });

    t.test('parallel settlements and new reservations at the limit never count past it', async (t) => {
      await backend.writeRemaining('budget:edge', 100_000);
      const windows = [window('token:10:daily:a', 100)];
      const first = await Promise.all(Array.from({ length: 10 }, (_, index) => backend.reserve('budget:edge', 10, lease(`edge-${index}`), claim(windows))));
      t.equal(first.filter((result) => result.granted).length, 10, 'the window is full');
      // Each settlement charges 5 of its 10: 50 come back while 20 requests of 10 ask for them.
      const [, reservations] = await Promise.all([
        Promise.all(Array.from({ length: 10 }, (_, index) => backend.settle('budget:edge', 10, 5, `${driver}-edge-${index}`, { budget: true }))),
        Promise.all(Array.from({ length: 20 }, (_, index) => backend.reserve('budget:edge', 10, lease(`edge-late-${index}`), claim(windows)))),
      ]);
      const granted = reservations.filter((result) => result.granted).length;
      t.ok(granted <= 5, `at most the 50 units given back were reserved again (${granted} of 20 granted)`);
      t.same(await backend.readBudgetWindows(['token:10:daily:a']), new Map([['token:10:daily:a', 50 + granted * 10]]));
    });

    if (driver !== 'memory') {
      t.test('two connections to one store together grant exactly 20 of 200 parallel reservations against a window that fits 20', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        await backend.writeRemaining('budget:shared', 100_000);
        await backend.writeRemaining('budget:shared-other', 100_000);
        // Two tokens of one user: the user's window is shared, each token's is its own.
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, index) =>
            (index % 2 === 0 ? backend : other).reserve(
              index % 4 < 2 ? 'budget:shared' : 'budget:shared-other',
              1,
              lease(`shared-${index}`),
              claim([window(`token:${index % 4 < 2 ? 11 : 12}:daily:a`, 1000), window('user:11:daily:a', 20)]),
            ),
          ),
        );
        t.equal(results.filter((result) => result.granted).length, 20);
        t.same((await other.readBudgetWindows(['user:11:daily:a'])).get('user:11:daily:a'), 20);
      });
    }

    t.test('a sweep removes windows whose period ended, and keeps the others', async (t) => {
      await backend.writeRemaining('budget:ended', 1000);
      await backend.reserve('budget:ended', 5, lease('ended'), claim([window('token:13:daily:ended', 100, true, Date.now() + 50), window('token:13:daily:live', 100)]));
      await pause(100);
      // Redis expires the window with its key, the other drivers when a sweep finds it.
      for (let round = 0; round < 100; round += 1) if ((await backend.sweepWindows(100)) === 0) break;
      t.same(await backend.readBudgetWindows(['token:13:daily:ended', 'token:13:daily:live']), new Map([['token:13:daily:live', 5]]));
      t.same(await backend.settle('budget:ended', 5, 5, `${driver}-ended`, { budget: true }), { remain: 995, used: 5, charged: 5, held: true }, 'the settlement of a removed window brings it not back');
      t.same(await backend.readBudgetWindows(['token:13:daily:ended']), new Map());
    });

    t.test('exports live windows and the windows of holds, and an import gives them back', async (t) => {
      await backend.writeRemaining('budget:export', 1000);
      await backend.reserve('budget:export', 9, lease('export'), claim([window('token:14:daily:a', 100)]));
      const entries: StoreEntry[] = [];
      for await (const entry of backend.exportEntries()) entries.push(entry);
      t.match(entries.find((entry) => entry.kind === 'budget' && entry.key === 'token:14:daily:a'), { kind: 'budget', used: 9 });
      t.match(entries.find((entry) => entry.kind === 'hold' && entry.id === `${driver}-export`), { budget: { windows: ['token:14:daily:a'], units: 9 } });
      const copy = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => copy.close());
      await copy.importEntries(
        (async function* () {
          yield* entries.filter((entry) => entry.kind === 'budget' || entry.kind === 'balance' || entry.kind === 'hold');
        })(),
      );
      t.same(await copy.readBudgetWindows(['token:14:daily:a']), new Map([['token:14:daily:a', 9]]));
      t.same(await copy.settle('budget:export', 9, 4, `${driver}-export`, { budget: true }), { remain: 996, used: 4, charged: 4, held: true });
      t.same(await copy.readBudgetWindows(['token:14:daily:a']), new Map([['token:14:daily:a', 4]]), 'the imported hold corrects its window');
    });
  });
}
