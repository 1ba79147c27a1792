import t from 'tap';
import { ChannelAffinity } from '../../core/routing/channel-affinity.js';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import { TokenStatus } from '../../core/tokens/token-record.js';
import { StoreTokenRepository } from '../../core/tokens/store-token-repository.js';
import { StoreUserRepository } from '../../core/users/store-user-repository.js';
import { StoreChannelRepository } from '../../core/channels/store-channel-repository.js';
import type { StoredChannelRecord } from '../../core/channels/channel-repository.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';
import { testTokenRecord } from '../helpers/test-token-record.js';

const record = (id: number, userId: number) => testTokenRecord(id, { user_id: userId });

const channelRecord = (name: string, fields: Partial<StoredChannelRecord> = {}): StoredChannelRecord => ({
  name,
  plain: { name, plugin: 'gx', base_url: 'http://127.0.0.1:9/gx', models: ['gx-2.5-pro'], model_map: {}, groups: ['default'], priority: 0, weight: 1, timeouts: { connect_ms: 1, first_byte_ms: 1, idle_ms: 1, total_ms: 1 } },
  sealed: `v1.sealed-${name}`,
  created_time: 1_800_000_000,
  updated_time: 1_800_000_000,
  ...fields,
});

for (const driver of storageDrivers) {
  t.test(`repositories on the ${driver} driver`, async (t) => {
    const backend = await createStoreBackend(storageFor(t, driver));
    t.teardown(() => backend.close());
    const tokens = new StoreTokenRepository(backend);
    const users = new StoreUserRepository(backend);

    t.test('a remembered response id names its channel until its TTL runs out', async (t) => {
      const affinity = new ChannelAffinity(backend.keyv<string>('affinity'), 1000);
      await affinity.remember('resp_abc', 'gp-east');
      t.equal(await affinity.channelOf('resp_abc'), 'gp-east');
      t.equal(await affinity.channelOf('resp_unknown'), undefined);
      const shortLived = new ChannelAffinity(backend.keyv<string>('affinity'), 50);
      await shortLived.remember('resp_brief', 'gp-west');
      await new Promise((resolve) => setTimeout(resolve, 300));
      t.equal(await shortLived.channelOf('resp_brief'), undefined, 'expired');
    });

    t.test('a token is found by id, by key hash and among its owner\'s ids, with its balance', async (t) => {
      const id = await tokens.nextId();
      await tokens.insert(record(id, 7), 1234);
      t.match(await tokens.get(id), { id, user_id: 7, remain_quota: 1234, used_quota: 0, accessed_time: 1_700_000_000 });
      t.equal(await tokens.findIdByKeyHash(`hash-${id}`), id);
      t.same(await tokens.idsOfUser(7), [id]);
      t.same(await tokens.idsOfUser(8), []);
    });

    t.test('an update replaces the record and, when given, the remaining quota', async (t) => {
      const id = await tokens.nextId();
      await tokens.insert(record(id, 9), 10);
      await tokens.update({ ...record(id, 9), name: 'renamed', status: TokenStatus.disabled });
      t.match(await tokens.get(id), { name: 'renamed', status: 2, remain_quota: 10 });
      await tokens.update(record(id, 9), 99);
      t.match(await tokens.get(id), { remain_quota: 99, status: 1 });
    });

    t.test('getMany returns existing tokens in the order asked', async (t) => {
      const first = await tokens.nextId();
      const second = await tokens.nextId();
      await tokens.insert(record(first, 11), 1);
      await tokens.insert(record(second, 11), 2);
      t.same(
        (await tokens.getMany([second, 999_999, first])).map((token) => token.id),
        [second, first],
      );
    });

    t.test('a deleted token leaves no record, index, ownership or balance', async (t) => {
      const id = await tokens.nextId();
      await tokens.insert(record(id, 12), 5);
      await tokens.delete(record(id, 12));
      t.equal(await tokens.get(id), undefined);
      t.equal(await tokens.findIdByKeyHash(`hash-${id}`), undefined);
      t.same(await tokens.idsOfUser(12), []);
      t.equal((await backend.readBalances([`token:${id}`])).size, 0);
    });

    t.test('access times are written in one batch and read back', async (t) => {
      const id = await tokens.nextId();
      await tokens.insert(record(id, 13), 0);
      await tokens.recordAccessTimes(new Map([[id, 1_800_000_000]]));
      t.equal((await tokens.get(id))?.accessed_time, 1_800_000_000);
    });

    t.test('token ids are unique under concurrent creation', async (t) => {
      const ids = await Promise.all(Array.from({ length: 40 }, () => tokens.nextId()));
      t.equal(new Set(ids).size, 40);
    });

    t.test('a user is found by id, username and login-token hash; a rotated hash no longer finds it', async (t) => {
      const id = await users.nextId();
      await users.save({ id, username: 'alice', role: 'user', status: 1, login_token_hash: 'h1', created_time: 1 });
      t.match(await users.get(id), { username: 'alice' });
      t.match(await users.findByUsername('alice'), { id });
      t.match(await users.findByLoginTokenHash('h1'), { id });
      await users.save({ id, username: 'alice', role: 'user', status: 1, login_token_hash: 'h2', created_time: 1 });
      t.equal(await users.findByLoginTokenHash('h1'), undefined);
      t.match(await users.findByLoginTokenHash('h2'), { id });
      t.equal(await users.count(), 1);
    });

    t.test('a user stored before users had a status reads as enabled, and a status saved later is kept', async (t) => {
      const id = await users.nextId();
      await backend.keyv('users').set(String(id), { id, username: 'carol', role: 'user', login_token_hash: 'hc', created_time: 1 });
      t.match(await users.get(id), { username: 'carol', status: 1 });
      await users.save({ id, username: 'carol', role: 'user', status: 2, login_token_hash: 'hc', created_time: 1 });
      t.match(await users.findByLoginTokenHash('hc'), { id, status: 2 });
    });

    t.test('nextId skips ids taken by users written with explicit ids', async (t) => {
      const taken = (await users.nextId()) + 1;
      await users.save({ id: taken, username: 'bob', role: 'admin', status: 1, login_token_hash: 'hb', created_time: 1 });
      const next = await users.nextId();
      t.not(next, taken);
      t.equal(await users.get(next), undefined);
    });

    t.test('a stored channel is listed and read back by name, and a save replaces it', async (t) => {
      const channels = new StoreChannelRepository(backend);
      await channels.save(channelRecord('rt-one'));
      await channels.save(channelRecord('rt-two'));
      t.same((await channels.list()).map((channel) => channel.name).sort(), ['rt-one', 'rt-two']);
      await channels.save(channelRecord('rt-one', { sealed: 'v1.replaced', updated_time: 1_800_000_100 }));
      t.match(await channels.get('rt-one'), { sealed: 'v1.replaced', updated_time: 1_800_000_100, plain: { plugin: 'gx', models: ['gx-2.5-pro'] } });
      t.equal((await channels.list()).length, 2, 'still two');
      t.equal(await channels.get('rt-nowhere'), undefined);
    });

    t.test("a channel's disabled state is kept apart from its record, for file channels too, and goes with a deleted channel", async (t) => {
      const channels = new StoreChannelRepository(backend);
      await channels.save(channelRecord('rt-drained'), true);
      await channels.setDisabled('file-channel', true);
      t.same([...(await channels.disabledNames())].sort(), ['file-channel', 'rt-drained']);
      await channels.save(channelRecord('rt-drained'), false);
      t.same([...(await channels.disabledNames())], ['file-channel'], 'saved as enabled');
      await channels.save(channelRecord('rt-gone'), true);
      await channels.delete('rt-gone');
      t.equal(await channels.get('rt-gone'), undefined);
      t.notOk((await channels.list()).some((channel) => channel.name === 'rt-gone'), 'not listed');
      t.notOk((await channels.disabledNames()).has('rt-gone'), 'nor marked disabled');
      await channels.setDisabled('file-channel', false);
      t.same([...(await channels.disabledNames())], []);
    });
  });
}
