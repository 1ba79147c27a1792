import t from 'tap';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

for (const driver of storageDrivers) {
  t.test(`the ${driver} store backend`, async (t) => {
    const backend = await createStoreBackend(storageFor(t, driver));
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

    t.test('delivers published messages to subscribers', async (t) => {
      const received = new Promise<string>((resolve) => void backend.subscribe('news', resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      await backend.publish('news', 'hello');
      t.equal(await received, 'hello');
    });
  });
}
