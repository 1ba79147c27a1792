import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';
import { gxChannel, scenarioPricing } from '../helpers/gateway-scenario.js';
import { writeGatewayConfig } from '../helpers/cli-gateway-process.js';
import { httpCall } from '../helpers/http-call.js';
import { testEncryptionKey } from '../helpers/test-config.js';

/** A config for a gateway process on SQLite in front of one gx upstream, with an operator whose login token is known. */
export interface ProcessGatewaySetup {
  file: string;
  /** The directory of the SQLite file and the data. */
  directory: string;
  /** `Authorization` for the management API. */
  asOperator: { authorization: string };
}

export function processGatewayConfig(t: Test, upstreamUrl: string, server: Record<string, unknown> = {}): ProcessGatewaySetup {
  const directory = mkdtempSync(join(tmpdir(), 'mg-faults-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  const loginToken = `mgu_${randomBytes(24).toString('hex')}`;
  const file = writeGatewayConfig(t, {
    server: { host: '127.0.0.1', port: 0, ...server },
    storage: { driver: 'sqlite', path: join(directory, 'gateway.sqlite'), data_dir: directory },
    security: { encryption_key: testEncryptionKey },
    users: [{ id: 1, username: 'operator', login_token: loginToken }],
    pricing: scenarioPricing,
    providers: [gxChannel('gx-main', upstreamUrl)],
  });
  return { file, directory, asOperator: { authorization: `Bearer ${loginToken}` } };
}

/** A token created and revealed through the management API of `base`. */
export interface ProcessToken {
  id: number;
  bearer: { authorization: string };
}

export async function issueProcessToken(base: string, setup: ProcessGatewaySetup, fields: Record<string, unknown> = {}): Promise<ProcessToken> {
  const created = await httpCall(`${base}/api/token/`, { headers: setup.asOperator, body: { name: 'faults', remain_quota: 5_000_000, ...fields } });
  if (created.json().success !== true) throw new Error(`token not created: ${created.body}`);
  const id = (await httpCall(`${base}/api/token/?size=1`, { headers: setup.asOperator })).json().data.items[0].id as number;
  const key = (await httpCall(`${base}/api/token/${id}/key`, { method: 'POST', headers: setup.asOperator })).json().data.key as string;
  return { id, bearer: { authorization: `Bearer sk-${key}` } };
}

/** `used_quota` of a token, through the management API of `base`. */
export async function usedQuota(base: string, setup: ProcessGatewaySetup, id: number): Promise<number> {
  return (await httpCall(`${base}/api/token/${id}`, { headers: setup.asOperator })).json().data.used_quota as number;
}
