import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import t from 'tap';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { withDefaultUser } from '../../core/store/postgres-store-backend.js';
import { buildTestApp } from '../helpers/build-test-app.js';
import { storageFor, testConfig, testEncryptionKey } from '../helpers/test-config.js';

// Every address that fails to authenticate gets a counting window in the store, and an
// attacker chooses how many addresses there are: the lease keeper's round removes the windows
// once they reset, so the store keeps only the live ones.

// Long enough for 21 requests in one window on a loaded machine.
const windowMilliseconds = 2000;

/** How many auth-failure windows the store's table holds, reset or not, read beside the gateway. */
async function authFailureWindows(storage: GatewayConfig['storage']): Promise<number> {
  const counting = "SELECT count(*) AS count FROM {table} WHERE key LIKE 'auth-failures:%'";
  if (storage.driver === 'sqlite') {
    const database = new Database(storage.path, { readonly: true });
    try {
      return Number((database.prepare(counting.replace('{table}', 'windows')).get() as { count: number }).count);
    } finally {
      database.close();
    }
  }
  const client = new pg.Client({ connectionString: withDefaultUser(storage.url as string) });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(counting.replace('{table}', `${pg.escapeIdentifier(storage.schema as string)}.windows`));
    return Number(rows[0]?.count);
  } finally {
    await client.end();
  }
}

const wrongKey = () => ({ authorization: `Bearer sk-${randomBytes(36).toString('base64url').replace(/[-_]/g, 'x').slice(0, 48)}` });

for (const driver of ['sqlite', 'postgres'] as const) {
  t.test(`on ${driver}, the auth-failure windows of 60 guessing addresses are removed from the store once they reset, and counting goes on`, async (t) => {
    const storage = { ...storageFor(t, driver), lease_seconds: 1 };
    const config = testConfig(storage, { security: { encryption_key: testEncryptionKey, auth_failures: { window_ms: windowMilliseconds } } });
    const gateway = await buildTestApp(t, driver, {}, { config });
    const guesses: number[] = [];
    for (let index = 0; index < 60; index += 1) guesses.push((await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: wrongKey(), remoteAddress: `198.18.1.${index + 1}` })).statusCode);
    t.same(guesses, Array(60).fill(401), 'each address\'s wrong key gets 401');
    t.ok((await authFailureWindows(storage)) > 0, 'the failures were counted in the store');
    // Within the window, one lease round (a third of the lease) and room for a loaded machine.
    const deadline = Date.now() + windowMilliseconds + 10_000;
    let left = await authFailureWindows(storage);
    while (left > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = await authFailureWindows(storage);
    }
    t.equal(left, 0, 'no auth-failure window is left once they all reset');
    const statuses: number[] = [];
    for (let index = 0; index < 21; index += 1) statuses.push((await gateway.app.inject({ method: 'GET', url: '/v1/models', headers: wrongKey(), remoteAddress: '198.18.1.1' })).statusCode);
    t.same(statuses, [...Array(20).fill(401), 429], 'an address whose window was removed is counted anew: 20 wrong keys get 401, the 21st 429');
  });
}
