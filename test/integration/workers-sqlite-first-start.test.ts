import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { listeningUrl, startCliGateway, writeGatewayConfig, type LogEntry } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { storageFor } from '../helpers/test-config.js';

// The first start of two workers on SQLite without `security.encryption_key`, as the default
// config has it: one worker must generate the key file before the other looks for it, even
// when a configured user would let both start at once.

const loginToken = `mgu_${randomBytes(24).toString('hex')}`;

t.test('two workers starting on an empty SQLite data directory with no encryption key make one key file, which both use', async (t) => {
  const storage = storageFor(t, 'sqlite');
  const file = writeGatewayConfig(t, { server: { host: '127.0.0.1', port: 0, workers: 2 }, storage, users: [{ id: 1, username: 'operator', login_token: loginToken }] });
  const gateway = startCliGateway(t, file);
  const listening = await gateway.waitForLogs(/^Server listening at /, 2);
  await gateway.waitForLog(/^every worker is listening$/);
  const base = listeningUrl(listening[0] as LogEntry);
  const workerPids = new Set(listening.map((entry) => entry.pid));

  t.equal(gateway.entries().filter((entry) => entry.msg.startsWith('generated an encryption key')).length, 1, 'one worker generated the key');
  t.equal(statSync(join(storage.data_dir, 'encryption.key')).mode & 0o777, 0o600, 'the key file is private');

  const asOperator = { authorization: `Bearer ${loginToken}` };
  t.equal((await httpCall(`${base}/api/token/`, { headers: asOperator, body: { name: 'first', unlimited_quota: true } })).json().success, true);
  const id = (await httpCall(`${base}/api/token/?size=1`, { headers: asOperator })).json().data.items[0].id as number;
  const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: asOperator })).json().data.key as string;

  // A worker under another key would find no token for this key and answer 401.
  const ids = Array.from({ length: 12 }, (_, index) => `first-start-${index}`);
  const answers = await Promise.all(ids.map((requestId) => httpCall(`${base}/v1/models`, { headers: { authorization: `Bearer sk-${key}`, 'x-request-id': requestId } })));
  t.same(answers.map((answer) => answer.status), ids.map(() => 200), 'the key works on every request');
  const wanted = new Set(ids);
  const lines = await gateway.waitForLogs(/^request answered$/, ids.length, { where: (entry) => wanted.has(entry.reqId as string) });
  t.same(new Set(lines.map((entry) => entry.pid)), workerPids, 'in both workers');
});
