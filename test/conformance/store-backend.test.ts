import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
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
      t.same(await backend.settle('settle:1', 300, 120), { remain: 880, used: 120, charged: 120 });
      t.same((await backend.readBalances(['settle:1'])).get('settle:1'), { remain: 880, used: 120 });
    });

    t.test('settles a cost above the reservation from the rest of the balance', async (t) => {
      await backend.writeRemaining('settle:above', 1000);
      await backend.reserve('settle:above', 100);
      t.same(await backend.settle('settle:above', 100, 250), { remain: 750, used: 250, charged: 250 });
    });

    t.test('settling more than the balance can pay charges what remains and never goes below zero', async (t) => {
      await backend.writeRemaining('settle:below-zero', 100);
      await backend.reserve('settle:below-zero', 80);
      t.same(await backend.settle('settle:below-zero', 80, 500), { remain: 0, used: 100, charged: 100 });
      t.same(await backend.settle('settle:below-zero', 0, 50), { remain: 0, used: 100, charged: 0 });
      t.same((await backend.readBalances(['settle:below-zero'])).get('settle:below-zero'), { remain: 0, used: 100 });
    });

    t.test('a settlement of zero returns the whole reservation', async (t) => {
      await backend.writeRemaining('settle:refund', 50);
      await backend.reserve('settle:refund', 50);
      t.same(await backend.settle('settle:refund', 50, 0), { remain: 50, used: 0, charged: 0 });
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
      t.same(await backend.settle('settle:missing', 10, 5), { remain: 0, used: 0, charged: 0 });
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
      t.same(await backend.settle('large:1', 2 ** 40, 2 ** 41 + 1), { remain: large - 2 ** 41 - 1, used: 2 ** 41 + 1, charged: 2 ** 41 + 1 });
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

    t.test('delivers published messages to subscribers', async (t) => {
      const received = new Promise<string>((resolve) => void backend.subscribe('news', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await backend.publish('news', 'hello');
      t.equal(await received, 'hello');
    });
  });
}
