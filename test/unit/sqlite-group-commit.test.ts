import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { SqliteGroupCommit } from '../../core/store/sqlite-group-commit.js';

const openCounter = (t: Test) => {
  const database = new Database(join(t.testdir({}), 'group.sqlite'));
  database.exec('CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (0);');
  const add = database.prepare('UPDATE counter SET value = value + ? RETURNING value');
  const read = () => (database.prepare('SELECT value FROM counter').get() as { value: number }).value;
  return { database, add, read };
};

t.test('the writes of one turn commit together, each seeing the ones before it', async (t) => {
  const { database, add, read } = openCounter(t);
  t.teardown(() => database.close());
  const group = new SqliteGroupCommit(database);
  const results = await Promise.all([1, 2, 3].map((amount) => group.run(() => (add.get(amount) as { value: number }).value)));
  t.same(results, [1, 3, 6]);
  t.equal(read(), 6);
});

t.test('one failing write is refused alone; the others commit', async (t) => {
  const { database, add, read } = openCounter(t);
  t.teardown(() => database.close());
  const group = new SqliteGroupCommit(database);
  const outcomes = await Promise.allSettled([
    group.run(() => add.get(5)),
    group.run(() => {
      throw new Error('refused');
    }),
    group.run(() => add.get(7)),
  ]);
  t.same(
    outcomes.map((outcome) => outcome.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  t.equal(read(), 12);
});

t.test('when the commit itself fails, every write of the batch is refused and none was acknowledged', async (t) => {
  const { database, add } = openCounter(t);
  const group = new SqliteGroupCommit(database);
  const pending = [group.run(() => add.get(1)), group.run(() => add.get(2))];
  database.close();
  const outcomes = await Promise.allSettled(pending);
  t.same(
    outcomes.map((outcome) => outcome.status),
    ['rejected', 'rejected'],
  );
});
