import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import pg from 'pg';
import t from 'tap';
import { startFakeGxUpstream } from '../fakes/gx/fake-gx-upstream.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { chatBody, gxChannel, issueToken, nativeBody, postChat, postNative, scenarioPricing } from '../helpers/gateway-scenario.js';
import { withDefaultUser } from '../../core/store/postgres-store-backend.js';
import { postgresUrl, redisUrl } from '../helpers/test-config.js';
import { UserService } from '../../core/users/user-service.js';

// What an attacker who copies the data directory or dumps Redis or the PostgreSQL schema finds: the token records
// (a name we planted shows they were read), but no API key, no login token and no channel
// key in plain text. Keys are sealed, login tokens hashed; the config's channel keys live only
// in the config, and those of channels created through the channel API are sealed with the
// store's encryption key.

const channelKey = 'channel-key-at-rest-7c1e9a4f2b';
const runtimeChannelKey = 'runtime-channel-key-at-rest-93d0a6e1';
const runtimeChannelName = 'gx-runtime-at-rest';
const tokenName = 'at-rest-probe';

/** Every file under the SQLite data directory, byte for byte (database, WAL and shared-memory files). */
async function sqliteBytes(storage: GatewayConfig['storage']): Promise<{ files: string[]; bytes: Buffer }> {
  const files = (await readdir(storage.data_dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return { files, bytes: Buffer.concat(await Promise.all(files.map((file) => readFile(file)))) };
}

/** How each Redis type is read whole. */
const readerOf: Record<string, (key: string) => string[]> = {
  string: (key) => ['GET', key],
  hash: (key) => ['HGETALL', key],
  set: (key) => ['SMEMBERS', key],
  zset: (key) => ['ZRANGE', key, '0', '-1', 'WITHSCORES'],
  list: (key) => ['LRANGE', key, '0', '-1'],
  stream: (key) => ['XRANGE', key, '-', '+'],
};

/** Every key under the prefix and its whole value, as text; types no reader knows are listed so the test can fail on them. */
async function redisDump(prefix: string): Promise<{ keys: number; text: string; unread: string[] }> {
  const client = createClient({ url: redisUrl });
  client.on('error', () => {});
  await client.connect();
  const parts: string[] = [];
  const unread: string[] = [];
  let keys = 0;
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      for (const key of batch) {
        keys += 1;
        const type = String(await client.sendCommand(['TYPE', key]));
        const reader = readerOf[type];
        if (reader === undefined) unread.push(`${key} (${type})`);
        else parts.push(key, JSON.stringify(await client.sendCommand(reader(key))));
      }
    }
  } finally {
    await client.close();
  }
  return { keys, text: parts.join('\n'), unread };
}

/** Every row of every table in the schema, as text, and how many tables there were. */
async function postgresDump(schema: string): Promise<{ tables: number; text: string }> {
  const client = new pg.Client({ connectionString: withDefaultUser(postgresUrl) });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1', [schema])).rows;
    const parts: string[] = [];
    for (const { name } of tables) {
      const rows = (await client.query(`SELECT * FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)}`)).rows;
      parts.push(name, JSON.stringify(rows));
    }
    return { tables: tables.length, text: parts.join('\n') };
  } finally {
    await client.end();
  }
}

for (const driver of ['sqlite', 'redis', 'postgres'] as const) {
  t.test(`on ${driver}, no API key, login token or channel key is stored in plain text`, async (t) => {
    const upstream = await startFakeGxUpstream({ apiKey: channelKey });
    t.teardown(() => upstream.close());
    const gateway = await buildTestApp(t, driver, { pricing: scenarioPricing, providers: [gxChannel('gx-main', upstream.url, { api_key: channelKey })] });
    const token = await issueToken(t, gateway, { name: tokenName });
    const admin = (await gateway.app.gateway.resolve(UserService).create('root', 'admin')).loginToken;
    const runtimeChannel = { name: runtimeChannelName, plugin: 'gx', base_url: upstream.url, api_key: runtimeChannelKey, models: ['gx-3-at-rest'] };
    t.equal((await gateway.asUser(admin, { method: 'POST', url: '/api/channel/', payload: runtimeChannel })).statusCode, 200, 'a channel is created through the API');
    t.equal((await postChat(gateway, token, chatBody('hello'))).statusCode, 200, 'a request is served');
    t.equal((await postChat(gateway, token, chatBody('hello', { stream: true }))).statusCode, 200, 'and a stream');
    t.equal((await postNative(gateway, undefined, `gx-2.5-pro:generateContent?key=sk-${token.key}`, nativeBody('key in the query'))).statusCode, 200);
    const searched = await gateway.asUser(token.loginToken, { method: 'GET', url: `/api/token/search?token=${token.key}` });
    t.equal(searched.json().data.total, 1, 'the token is found by its key');
    // While serving, recent writes sit in the WAL; closing flushes access times and checkpoints it.
    const whileServing = driver === 'sqlite' ? await sqliteBytes(gateway.config.storage) : undefined;
    await gateway.app.close();

    const secrets = [
      ['the API key', token.key],
      ['the login token', token.loginToken],
      ["the channel's upstream key", channelKey],
      ["the runtime channel's upstream key", runtimeChannelKey],
    ] as const;
    let stored: string | Buffer;
    if (driver === 'sqlite') {
      const closed = await sqliteBytes(gateway.config.storage);
      t.ok(whileServing?.files.some((file) => file.endsWith('-wal')), `read ${whileServing?.files.length} files while serving, the WAL among them`);
      t.ok(closed.files.some((file) => file.endsWith('.sqlite')), `and ${closed.files.length} once closed`);
      stored = Buffer.concat([whileServing?.bytes ?? Buffer.alloc(0), closed.bytes]);
    } else if (driver === 'postgres') {
      const dump = await postgresDump(gateway.config.storage.schema as string);
      t.ok(dump.tables >= 7, `every row of the schema's ${dump.tables} tables was read`);
      stored = dump.text;
    } else {
      const dump = await redisDump(gateway.config.storage.key_prefix);
      t.strictSame(dump.unread, [], `every one of ${dump.keys} keys under the prefix was read`);
      stored = dump.text;
    }
    t.ok(stored.includes(tokenName), "the token's record is among what was read");
    t.ok(stored.includes(runtimeChannelName), "and the runtime channel's");
    for (const [name, secret] of secrets) t.notOk(stored.includes(secret), `${name} is not stored in plain text`);
  });
}
