import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import type { StoreBackend } from '../../core/store/store-backend.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

for (const driver of storageDrivers) {
  t.test(`the ${driver} store backend`, async (t) => {
    const storage = storageFor(t, driver);
    const backend = await createStoreBackend(storage);
    t.teardown(() => backend.close());

    t.test('answers ping while open', async (t) => {
      await t.resolves(backend.ping());
    });

    t.test('keeps keyv records per namespace', async (t) => {
      const first = backend.keyv<{ n: number }>('first');
      const second = backend.keyv<{ n: number }>('second');
      await first.set('a', { n: 1 });
      await second.set('a', { n: 2 });
      t.same(await first.get('a'), { n: 1 });
      t.same(await second.get('a'), { n: 2 });
      t.same(await first.getMany(['a', 'missing']), [{ n: 1 }, undefined]);
      t.equal(await first.delete('a'), true);
      t.equal(await first.get('a'), undefined);
    });

    t.test('opens thirty namespaces without a warning of leaking listeners', async (t) => {
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
      process.on('warning', onWarning);
      t.teardown(() => process.off('warning', onWarning));
      for (let index = 0; index < 30; index += 1) await backend.keyv(`many-${index}`).get('x');
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      t.strictSame(warnings, []);
    });

    t.test('clears, iterates and batch-writes one namespace without touching a namespace that shares its prefix', async (t) => {
      const mine = backend.keyv<number>('batch');
      const neighbour = backend.keyv<number>('batch-neighbour');
      await mine.setMany(Array.from({ length: 150 }, (_, index) => ({ key: `k${String(index).padStart(3, '0')}`, value: index })));
      await neighbour.set('k000', -1);
      t.equal(await mine.has('k149'), true);
      t.equal(await mine.has('k150'), false);
      const iterated: Array<[string, number]> = [];
      for await (const [key, value] of mine.iterator!(undefined)) iterated.push([key as string, value as number]);
      t.same(
        iterated.sort(([a], [b]) => a.localeCompare(b)),
        Array.from({ length: 150 }, (_, index) => [`k${String(index).padStart(3, '0')}`, index]),
        'every record of the namespace once, and none of the neighbour',
      );
      await mine.deleteMany(['k000', 'k001', 'missing']);
      t.same(await mine.getMany(['k000', 'k002']), [undefined, 2]);
      await mine.clear();
      t.equal(await mine.get('k002'), undefined);
      t.equal(await neighbour.get('k000'), -1, 'the neighbour keeps its record');
    });

    t.test('writes records, set members and balances together, readable where each is read', async (t) => {
      await backend.writeTogether({
        records: [
          { namespace: 'together', key: 'a', value: { n: 1 } },
          { namespace: 'together-index', key: 'x', value: 7 },
        ],
        setAdditions: [{ key: 'together:set', members: ['a', 'b'] }],
        remaining: [{ account: 'together:1', remain: 40 }],
      });
      t.same(await backend.keyv('together').get('a'), { n: 1 });
      t.equal(await backend.keyv('together-index').get('x'), 7);
      t.same((await backend.setMembers('together:set')).sort(), ['a', 'b']);
      t.same((await backend.readBalances(['together:1'])).get('together:1'), { remain: 40, used: 0 });
      await backend.addUsed('together:1', 5);
      await backend.writeTogether({ records: [{ namespace: 'together', key: 'a', value: { n: 2 } }], remaining: [{ account: 'together:1', remain: 10 }] });
      t.same(await backend.keyv('together').get('a'), { n: 2 });
      t.same((await backend.readBalances(['together:1'])).get('together:1'), { remain: 10, used: 5 }, 'what was used is kept');
    });

    t.test('counts a sequence up from 1 without gaps under concurrency', async (t) => {
      const values = await Promise.all(Array.from({ length: 50 }, () => backend.increment('sequence')));
      t.same(
        [...values].sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, index) => index + 1),
      );
      t.equal(await backend.increment('sequence', 10), 60);
    });

    t.test('counts hits in a window and starts a new window after it ends', async (t) => {
      const first = await backend.hitWindow('window', 200);
      const second = await backend.hitWindow('window', 200);
      t.equal(first.count, 1);
      t.equal(second.count, 2);
      t.ok(second.resetInMilliseconds > 0 && second.resetInMilliseconds <= 200);
      await new Promise((resolve) => setTimeout(resolve, 250));
      t.equal((await backend.hitWindow('window', 200)).count, 1);
    });

    // Windows are swept in a store of their own: every window of the shared one resets
    // sometime, and a sweep there would count them too. Redis expires a window's key when the
    // window resets, so its sweeps find none to remove.
    const keepsResetWindows = driver !== 'redis';
    const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
    const windowsOf = async (store: StoreBackend) => {
      const windows: Array<{ key: string; count: number }> = [];
      for await (const entry of store.exportEntries()) if (entry.kind === 'window') windows.push({ key: entry.key, count: entry.count });
      return windows;
    };

    t.test('a sweep removes at most its limit of reset windows until none is left, and keeps live windows with their counts', async (t) => {
      const swept = await createStoreBackend(storageFor(t, driver));
      t.teardown(() => swept.close());
      for (let index = 0; index < 5; index += 1) await swept.hitWindow(`reset:${index}`, 50);
      await swept.hitWindow('live', 60_000);
      await swept.hitWindow('live', 60_000);
      await pause(120);
      t.equal(await swept.sweepWindows(2), keepsResetWindows ? 2 : 0, 'the first sweep removes its limit of 2');
      t.equal(await swept.sweepWindows(100), keepsResetWindows ? 3 : 0, 'the next removes the other 3');
      t.equal(await swept.sweepWindows(100), 0, 'none is left to remove');
      t.same(await windowsOf(swept), [{ key: 'live', count: 2 }], 'the live window is kept with its count');
      t.equal((await swept.hitWindow('live', 60_000)).count, 3, 'and goes on counting');
      t.equal((await swept.hitWindow('reset:0', 50)).count, 1, 'a swept window starts anew at its next hit, as a reset one does');
    });

    t.test('two sweeps at once remove each reset window once', async (t) => {
      const storage = storageFor(t, driver);
      const one = await createStoreBackend(storage);
      t.teardown(() => one.close());
      // Memory is one process: its "other connection" is the same store.
      const other = driver === 'memory' ? one : await createStoreBackend(storage);
      if (other !== one) t.teardown(() => other.close());
      await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? one : other).hitWindow(`reset:${index}`, 50)));
      await pause(120);
      const removed = await Promise.all([one.sweepWindows(100), other.sweepWindows(100), one.sweepWindows(100), other.sweepWindows(100)]);
      t.equal(removed.reduce((sum, count) => sum + count, 0), keepsResetWindows ? 40 : 0, `removed ${removed.join(' + ')}`);
      t.equal(await one.sweepWindows(100), 0, 'none is left to remove');
    });

    // A bucket of capacity 2 over an hour refills one unit every 30 minutes: nothing refills
    // while a test runs, so each count below is exact.
    const hour = 3_600_000;
    const draw = (key: string, amount: number, capacity = 2, windowMilliseconds = hour) => ({ key, amount, capacity, windowMilliseconds });

    t.test('draws on a rate bucket until it is empty, then says how long until the draw fits', async (t) => {
      t.match(await backend.drawRates([draw('rate:empty', 1)]), { granted: true });
      t.match(await backend.drawRates([draw('rate:empty', 1)]), { granted: true });
      const refused = await backend.drawRates([draw('rate:empty', 1)]);
      t.match(refused, { granted: false, refused: 0 });
      const wait = refused.granted ? 0 : refused.retryInMilliseconds;
      t.ok(wait > hour / 2 - 60_000 && wait <= hour / 2, `one unit refills in half an hour (${wait} ms)`);
      t.match(await backend.drawRates([draw('rate:empty', 0)]), { granted: true }, 'a draw of nothing fits a bucket that is empty but not in debt');
    });

    t.test('draws on several buckets all or nothing, and names the one that waits longest', async (t) => {
      t.match(await backend.drawRates([draw('rate:pair-b', 2)]), { granted: true });
      const refused = await backend.drawRates([draw('rate:pair-a', 1), draw('rate:pair-b', 1)]);
      t.match(refused, { granted: false, refused: 1 });
      t.match(await backend.drawRates([draw('rate:pair-a', 2)]), { granted: true }, 'the refused draw took nothing from the other bucket');
    });

    t.test('refills a rate bucket continuously', async (t) => {
      t.match(await backend.drawRates([draw('rate:refill', 2, 2, 200)]), { granted: true });
      t.match(await backend.drawRates([draw('rate:refill', 1, 2, 200)]), { granted: false });
      await new Promise((resolve) => setTimeout(resolve, 250));
      t.match(await backend.drawRates([draw('rate:refill', 2, 2, 200)]), { granted: true });
    });

    t.test('a correction gives back what a draw did not use, and takes more when it used more', async (t) => {
      const taken = await backend.drawRates([draw('rate:correct', 2)]);
      if (!taken.granted) return t.fail('the first draw fits');
      await backend.correctRate({ key: 'rate:correct', delta: -1, capacity: 2, windowMilliseconds: hour, mark: taken.marks[0]! });
      const again = await backend.drawRates([draw('rate:correct', 1)]);
      t.match(again, { granted: true }, 'the unit given back can be drawn again');
      t.match(await backend.drawRates([draw('rate:correct', 1)]), { granted: false });
      if (!again.granted) return;
      await backend.correctRate({ key: 'rate:correct', delta: -5, capacity: 2, windowMilliseconds: hour, mark: again.marks[0]! });
      t.match(await backend.drawRates([draw('rate:correct', 1)]), { granted: true }, 'a draw gives back at most what it took');
      t.match(await backend.drawRates([draw('rate:correct', 1)]), { granted: false });

      await backend.correctRate({ key: 'rate:debt', delta: 3, capacity: 2, windowMilliseconds: hour, mark: { amount: 0, fullAt: 0, returned: 0 } });
      const indebted = await backend.drawRates([draw('rate:debt', 0)]);
      t.match(indebted, { granted: false }, 'taking more than the capacity leaves a debt that refuses even a draw of nothing');
      if (!indebted.granted) t.ok(indebted.retryInMilliseconds > hour / 2 - 60_000 && indebted.retryInMilliseconds <= hour / 2);
    });

    t.test('a draw the bucket has already refilled gives nothing back', async (t) => {
      // One unit of a bucket of 2 over 400 ms refills in 200 ms.
      const taken = await backend.drawRates([draw('rate:drained', 1, 2, 400)]);
      if (!taken.granted) return t.fail('the first draw fits');
      await new Promise((resolve) => setTimeout(resolve, 250));
      t.match(await backend.drawRates([draw('rate:drained', 2, 2, 400)]), { granted: true }, 'the bucket is full again');
      await backend.correctRate({ key: 'rate:drained', delta: -1, capacity: 2, windowMilliseconds: 400, mark: taken.marks[0]! });
      t.match(await backend.drawRates([draw('rate:drained', 1, 2, 400)]), { granted: false }, 'the second draw still holds the whole bucket');
    });

    t.test('gives back conservatively when an earlier draw gave back first', async (t) => {
      const first = await backend.drawRates([draw('rate:order', 1)]);
      const second = await backend.drawRates([draw('rate:order', 1)]);
      if (!first.granted || !second.granted) return t.fail('both draws fit');
      await backend.correctRate({ key: 'rate:order', delta: -1, capacity: 2, windowMilliseconds: hour, mark: first.marks[0]! });
      await backend.correctRate({ key: 'rate:order', delta: -1, capacity: 2, windowMilliseconds: hour, mark: second.marks[0]! });
      t.match(await backend.drawRates([draw('rate:order', 2)]), { granted: true }, 'both units are back');
      t.match(await backend.drawRates([draw('rate:order', 1)]), { granted: false }, 'and no more');
    });

    t.test('grants exactly 20 of 200 parallel draws on a bucket of 20', async (t) => {
      const results = await Promise.all(Array.from({ length: 200 }, () => backend.drawRates([draw('rate:parallel', 1, 20)])));
      t.equal(results.filter((result) => result.granted).length, 20);
    });

    t.test('grants all of a bucket whose refill interval is not a whole number of milliseconds', async (t) => {
      const results = await Promise.all(Array.from({ length: 70 }, () => backend.drawRates([draw('rate:sevenths', 1, 7)])));
      t.equal(results.filter((result) => result.granted).length, 7, 'an hour / 7 each: the seventh is not lost to rounding');
    });

    t.test('refuses draws that do not fit the bucket and numbers that are not whole', async (t) => {
      await t.rejects(backend.drawRates([draw('rate:invalid', 3)]), RangeError);
      await t.rejects(backend.drawRates([draw('rate:invalid', 1.5)]), RangeError);
      await t.rejects(backend.drawRates([draw('rate:invalid', 1, 0)]), RangeError);
      await t.rejects(backend.correctRate({ key: 'rate:invalid', delta: 0.5, capacity: 2, windowMilliseconds: hour, mark: { amount: 0, fullAt: 0, returned: 0 } }), RangeError);
      t.match(await backend.drawRates([draw('rate:invalid', 2)]), { granted: true }, 'nothing was taken');
    });

    t.test('adds, lists and removes set members', async (t) => {
      await backend.addToSet('set', ['1', '2', '3']);
      await backend.addToSet('set', ['2']);
      t.same((await backend.setMembers('set')).sort(), ['1', '2', '3']);
      t.equal(await backend.removeFromSet('set', ['2', '9']), 1);
      t.same((await backend.setMembers('set')).sort(), ['1', '3']);
      t.same(await backend.setMembers('empty'), []);
    });

    t.test('sets remaining quota while keeping what was used, and deletes balances', async (t) => {
      await backend.writeRemaining('account:1', 500);
      t.same(await backend.readBalances(['account:1', 'account:2']), new Map([['account:1', { remain: 500, used: 0 }]]));
      await backend.writeRemaining('account:1', 700);
      t.same((await backend.readBalances(['account:1'])).get('account:1'), { remain: 700, used: 0 });
      await backend.deleteBalance('account:1');
      t.equal((await backend.readBalances(['account:1'])).size, 0);
    });

    t.test('reserves units only while the balance covers them', async (t) => {
      await backend.writeRemaining('reserve:1', 100);
      t.same(await backend.reserve('reserve:1', 60), { granted: true, remain: 40 });
      t.same(await backend.reserve('reserve:1', 41), { granted: false, remain: 40 });
      t.same(await backend.reserve('reserve:1', 40), { granted: true, remain: 0 });
      t.same(await backend.reserve('reserve:1', 1), { granted: false, remain: 0 });
      t.same((await backend.readBalances(['reserve:1'])).get('reserve:1'), { remain: 0, used: 0 });
    });

    t.test('refuses a reservation on an account without a balance and creates none', async (t) => {
      t.same(await backend.reserve('reserve:missing', 1), { granted: false, remain: 0 });
      t.equal((await backend.readBalances(['reserve:missing'])).size, 0);
    });

    t.test('grants exactly 20 of 200 parallel reservations against a quota that fits 20', async (t) => {
      await backend.writeRemaining('reserve:parallel', 20 * 7 + 6);
      const results = await Promise.all(Array.from({ length: 200 }, () => backend.reserve('reserve:parallel', 7)));
      t.equal(results.filter((result) => result.granted).length, 20);
      t.ok(results.every((result) => result.remain >= 0));
      t.same((await backend.readBalances(['reserve:parallel'])).get('reserve:parallel'), { remain: 6, used: 0 });
    });

    t.test('settles a reservation: gives it back, charges the actual cost and counts it as used', async (t) => {
      await backend.writeRemaining('settle:1', 1000);
      await backend.reserve('settle:1', 300);
      t.same(await backend.settle('settle:1', 300, 120), { remain: 880, used: 120, charged: 120, held: true });
      t.same((await backend.readBalances(['settle:1'])).get('settle:1'), { remain: 880, used: 120 });
    });

    t.test('settles a cost above the reservation from the rest of the balance', async (t) => {
      await backend.writeRemaining('settle:above', 1000);
      await backend.reserve('settle:above', 100);
      t.same(await backend.settle('settle:above', 100, 250), { remain: 750, used: 250, charged: 250, held: true });
    });

    t.test('settling more than the balance can pay charges what remains and never goes below zero', async (t) => {
      await backend.writeRemaining('settle:below-zero', 100);
      await backend.reserve('settle:below-zero', 80);
      t.same(await backend.settle('settle:below-zero', 80, 500), { remain: 0, used: 100, charged: 100, held: true });
      t.same(await backend.settle('settle:below-zero', 0, 50), { remain: 0, used: 100, charged: 0, held: true });
      t.same((await backend.readBalances(['settle:below-zero'])).get('settle:below-zero'), { remain: 0, used: 100 });
    });

    t.test('a settlement of zero returns the whole reservation', async (t) => {
      await backend.writeRemaining('settle:refund', 50);
      await backend.reserve('settle:refund', 50);
      t.same(await backend.settle('settle:refund', 50, 0), { remain: 50, used: 0, charged: 0, held: true });
    });

    t.test('parallel settlements that overdraw the balance charge exactly what was there', async (t) => {
      await backend.writeRemaining('settle:parallel', 100);
      const reservations = await Promise.all(Array.from({ length: 10 }, () => backend.reserve('settle:parallel', 10)));
      t.ok(reservations.every((reservation) => reservation.granted));
      const settlements = await Promise.all(Array.from({ length: 10 }, () => backend.settle('settle:parallel', 10, 15)));
      t.equal(settlements.reduce((sum, settlement) => sum + settlement.charged, 0), 100);
      t.ok(settlements.every((settlement) => settlement.remain >= 0));
      t.same((await backend.readBalances(['settle:parallel'])).get('settle:parallel'), { remain: 0, used: 100 });
    });

    t.test('leaves an account without a balance absent when settling or adding usage', async (t) => {
      t.same(await backend.settle('settle:missing', 10, 5), { remain: 0, used: 0, charged: 0, held: true });
      await backend.addUsed('settle:missing', 5);
      t.equal((await backend.readBalances(['settle:missing'])).size, 0);
    });

    t.test('adds used units without touching the remaining units', async (t) => {
      await backend.writeRemaining('used:1', 0);
      await Promise.all(Array.from({ length: 25 }, () => backend.addUsed('used:1', 4)));
      t.same((await backend.readBalances(['used:1'])).get('used:1'), { remain: 0, used: 100 });
      await backend.writeRemaining('used:1', 30);
      t.same((await backend.readBalances(['used:1'])).get('used:1'), { remain: 30, used: 100 });
    });

    t.test('keeps balances beyond 32 bits exact', async (t) => {
      const large = 2 ** 45 + 3;
      await backend.writeRemaining('large:1', large);
      t.same(await backend.reserve('large:1', 2 ** 40), { granted: true, remain: large - 2 ** 40 });
      t.same(await backend.settle('large:1', 2 ** 40, 2 ** 41 + 1), { remain: large - 2 ** 41 - 1, used: 2 ** 41 + 1, charged: 2 ** 41 + 1, held: true });
      await backend.addUsed('large:1', 2 ** 42);
      t.same((await backend.readBalances(['large:1'])).get('large:1'), { remain: large - 2 ** 41 - 1, used: 2 ** 42 + 2 ** 41 + 1 });
    });

    t.test('rejects fractional and negative amounts without changing the balance', async (t) => {
      await backend.writeRemaining('invalid:1', 10);
      await t.rejects(backend.reserve('invalid:1', -5), RangeError);
      await t.rejects(backend.reserve('invalid:1', 1.5), RangeError);
      await t.rejects(backend.settle('invalid:1', 0, -1), RangeError);
      await t.rejects(backend.addUsed('invalid:1', Number.NaN), RangeError);
      t.same((await backend.readBalances(['invalid:1'])).get('invalid:1'), { remain: 10, used: 0 });
    });

    const lease = (id: string, leaseMilliseconds = 60_000) => ({ id: `${driver}-${id}`, owner: 'instance-a', leaseMilliseconds });

    t.test('a hold recorded with its reservation is given back by the sweeper once its lease runs out, and only once', async (t) => {
      await backend.writeRemaining('hold:swept', 100);
      t.same(await backend.reserve('hold:swept', 30, lease('swept', 400)), { granted: true, remain: 70 });
      t.same(await backend.reserve('hold:swept', 20, lease('kept')), { granted: true, remain: 50 });
      t.same(await backend.sweepHolds(100).then((holds) => holds.filter((hold) => hold.account === 'hold:swept')), [], 'a hold within its lease stays');
      await pause(500);
      const sweeps = await Promise.all([backend.sweepHolds(100), backend.sweepHolds(100)]);
      t.same(
        sweeps.flat().filter((hold) => hold.account === 'hold:swept'),
        [{ id: `${driver}-swept`, account: 'hold:swept', units: 30 }],
        'two sweepers at once return the expired hold once',
      );
      t.same((await backend.readBalances(['hold:swept'])).get('hold:swept'), { remain: 80, used: 0 });
      t.same(await backend.settle('hold:swept', 20, 5, `${driver}-kept`), { remain: 95, used: 5, charged: 5, held: true });
    });

    t.test('a settlement of a hold the sweeper returned gives nothing back again and charges what was delivered from what is left', async (t) => {
      await backend.writeRemaining('hold:late', 100);
      await backend.reserve('hold:late', 40, lease('late', 30));
      await pause(80);
      await backend.sweepHolds(100);
      t.same((await backend.readBalances(['hold:late'])).get('hold:late'), { remain: 100, used: 0 });
      t.same(await backend.settle('hold:late', 40, 10, `${driver}-late`), { remain: 90, used: 10, charged: 10, held: false });
      t.same(await backend.settle('hold:late', 40, 0, `${driver}-late`), { remain: 90, used: 10, charged: 0, held: false }, 'a second settlement is a no-op');
    });

    t.test('a renewed lease keeps its hold past the first expiry', async (t) => {
      await backend.writeRemaining('hold:renewed', 100);
      // Renewed well within each lease, so a loaded machine's late timer still renews in time.
      await backend.reserve('hold:renewed', 25, lease('renewed', 1000));
      for (let round = 0; round < 4; round += 1) {
        await pause(400);
        await backend.renewLeases({ holds: [`${driver}-renewed`], slots: [] }, 1000);
      }
      t.same((await backend.sweepHolds(100)).filter((hold) => hold.account === 'hold:renewed'), []);
      t.same(await backend.settle('hold:renewed', 25, 25, `${driver}-renewed`), { remain: 75, used: 25, charged: 25, held: true });
    });

    t.test('a detached hold is never swept and is settled once by its task', async (t) => {
      await backend.writeRemaining('hold:task', 100);
      await backend.reserve('hold:task', 60, lease('task', 30));
      t.equal(await backend.detachHold(`${driver}-task`), true);
      await pause(80);
      await backend.renewLeases({ holds: [`${driver}-task`], slots: [] }, 30);
      t.same((await backend.sweepHolds(100)).filter((hold) => hold.account === 'hold:task'), []);
      t.same(await backend.settle('hold:task', 60, 50, `${driver}-task`), { remain: 50, used: 50, charged: 50, held: true });
      t.equal(await backend.detachHold(`${driver}-task`), false, 'a settled hold is gone');
    });

    t.test('takes exactly 3 of 20 parallel slots under a limit of 3, counts a slot under every key, and frees released and expired ones', async (t) => {
      const claims = [{ key: `${driver}:token:1`, limit: 3 }, { key: `${driver}:group:a`, limit: 10 }];
      const results = await Promise.all(Array.from({ length: 20 }, (_, index) => backend.acquireSlots(claims, lease(`slot-${index}`, 1000))));
      const granted = results.flatMap((result, index) => (result.granted ? [index] : []));
      t.equal(granted.length, 3);
      t.ok(results.every((result) => result.granted || result.refused === 0), 'the full key is named');
      t.same(await backend.acquireSlots([{ key: `${driver}:group:a`, limit: 3 }], lease('slot-group', 1000)), { granted: false, refused: 0 }, 'the group key counts them too');
      await backend.releaseSlot({ id: `${driver}-slot-${granted[0]}`, keys: claims.map((claim) => claim.key) });
      t.same(await backend.acquireSlots(claims, lease('slot-after-release', 1000)), { granted: true });
      t.same(await backend.acquireSlots(claims, lease('slot-over', 1000)), { granted: false, refused: 0 });
      await pause(500);
      await backend.renewLeases({ holds: [], slots: [{ id: `${driver}-slot-after-release`, keys: claims.map((claim) => claim.key) }] }, 2000);
      await pause(700);
      t.same(await backend.acquireSlots(claims, lease('slot-after-expiry', 1000)), { granted: true }, 'the two slots not renewed expired');
      t.same(await backend.acquireSlots(claims, lease('slot-third', 1000)), { granted: true });
      t.same(await backend.acquireSlots(claims, lease('slot-fourth', 1000)), { granted: false, refused: 0 }, 'the renewed slot still counts');
    });

    if (driver !== 'memory') {
      t.test('two connections to one store together grant exactly 20 of 200 parallel reservations', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        await backend.writeRemaining('reserve:shared', 20);
        const results = await Promise.all(Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? backend : other).reserve('reserve:shared', 1)));
        t.equal(results.filter((result) => result.granted).length, 20);
        t.same((await other.readBalances(['reserve:shared'])).get('reserve:shared'), { remain: 0, used: 0 });
      });
    }

    if (driver !== 'memory') {
      t.test('two connections to one store together charge exactly the balance for 40 parallel settlements that overdraw it', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        await backend.writeRemaining('settle:shared', 100);
        const settlements = await Promise.all(Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? backend : other).settle('settle:shared', 0, 7)));
        t.equal(settlements.reduce((sum, settlement) => sum + settlement.charged, 0), 100, 'each settlement charged once: 14 of 7 and one of 2');
        t.equal(settlements.filter((settlement) => settlement.charged === 7).length, 14);
        t.same((await other.readBalances(['settle:shared'])).get('settle:shared'), { remain: 0, used: 100 });
      });
    }

    if (driver !== 'memory') {
      t.test('two connections to one store together take exactly 5 of 40 parallel slots under a limit of 5', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? backend : other).acquireSlots([{ key: `${driver}:shared-slots`, limit: 5 }], lease(`shared-${index}`))),
        );
        t.equal(results.filter((result) => result.granted).length, 5);
      });
    }

    if (driver !== 'memory') {
      t.test('two connections to one store together grant exactly 20 of 200 parallel rate draws', async (t) => {
        const other = await createStoreBackend(storage);
        t.teardown(() => other.close());
        const results = await Promise.all(
          Array.from({ length: 200 }, (_, index) => (index % 2 === 0 ? backend : other).drawRates([draw('rate:shared', 1, 20), draw('rate:shared-group', 1, 1000)])),
        );
        t.equal(results.filter((result) => result.granted).length, 20);
      });
    }

    t.test('delivers published messages to subscribers', async (t) => {
      let deliver: (message: string) => void = () => undefined;
      const received = new Promise<string>((resolve) => (deliver = resolve));
      // subscribe() resolves once the store has the subscription, so nothing published after it
      // can be missed (a fixed pause before publishing lost the message on a loaded machine).
      await backend.subscribe('news', (message) => deliver(message));
      await backend.publish('news', 'hello');
      t.equal(await received, 'hello');
    });
  });
}
