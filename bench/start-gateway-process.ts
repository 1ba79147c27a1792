import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateLoginToken } from '../core/security/login-token.js';
import { resolveWorkerCount } from '../server/worker-count.js';
import { benchModel, benchUpstreamKey } from './bench-workload.js';
import { stopChild, type ServerProcess } from './start-listening-program.js';

/** How the benchmark's gateway is started. */
export interface GatewayProcessOptions {
  /** The fast fake upstream the gx channel points at. */
  upstreamUrl: string;
  /** An empty directory for the config, the SQLite file and any CPU profile. */
  directory: string;
  /** `sqlite` as deployed by default; `memory` shows what the store costs. */
  storage: 'sqlite' | 'memory';
  /** The gateway's LOG_LEVEL (`info`, the production default, writes one line per request; `warn` leaves them out). */
  logLevel: string;
  /** Run under `node --cpu-prof`, writing the profile into `directory` when it stops. */
  cpuProfile: boolean;
  /** `server.workers` (1 unless told otherwise); with more, it resolves once every worker listens. */
  workers?: number | 'auto';
  /** `logs.enabled`: the usage log, on unless told otherwise (off shows what it costs). */
  usageLog?: boolean;
}

/** The running gateway and a token with (a large) limited quota. */
export interface GatewayProcess extends ServerProcess {
  /** The token's full key, `sk-...`. */
  apiKey: string;
  tokenId: number;
  /** The login token of the token's owner, for the management API. */
  loginToken: string;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function callJson(url: string, method: 'GET' | 'POST', loginToken: string, body?: unknown): Promise<any> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${loginToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

async function waitUntilHealthy(url: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the gateway did not become healthy');
}

/** Waits until the gateway's log file holds `message` (a cluster primary's line). */
async function waitForLogLine(file: string, message: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (readFileSync(file, 'utf8').includes(`"msg":"${message}"`)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the gateway did not log "${message}"`);
}

/**
 * Starts the built gateway (`dist/server/main.js start`) as its own process (on SQLite unless told otherwise), with
 * one gx channel in front of `upstreamUrl` and a price for the benchmark model, so every
 * request goes through API-key auth, a quota hold and its settlement, and routing. The
 * token has a limited quota on purpose: an unlimited one would skip the hold.
 */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const port = await freePort();
  const loginToken = generateLoginToken();
  const configFile = join(options.directory, 'gateway.yaml');
  writeFileSync(
    configFile,
    `server: { host: 127.0.0.1, port: ${port}, workers: ${options.workers ?? 1} }
storage: { driver: ${options.storage}, data_dir: ${JSON.stringify(options.directory)}${options.storage === 'sqlite' ? `, path: ${JSON.stringify(join(options.directory, 'gateway.sqlite'))}` : ''} }
security: { encryption_key: ${randomBytes(32).toString('hex')} }
users: [{ id: 1, username: bench, login_token: ${loginToken} }]
logs: { enabled: ${options.usageLog ?? true} }
groups: { default: { ratio: 1 } }
pricing: { ${benchModel}: { input_per_mtok: 0.3, output_per_mtok: 2.5 } }
providers:
  - { name: gx-bench, plugin: gx, base_url: ${JSON.stringify(options.upstreamUrl)}, api_key: ${benchUpstreamKey}, models: [${benchModel}] }
`,
  );
  const nodeOptions = options.cpuProfile ? ['--cpu-prof', '--cpu-prof-dir', options.directory] : [];
  const main = fileURLToPath(new URL('../server/main.js', import.meta.url));
  // The gateway's own log goes to a file beside its config, to read after a run that failed.
  const log = openSync(join(options.directory, 'gateway.log'), 'a');
  const child = spawn(process.execPath, [...nodeOptions, main, 'start', '--config', configFile], {
    env: { ...process.env, LOG_LEVEL: options.logLevel },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilHealthy(url);
    if (resolveWorkerCount(options.workers ?? 1) > 1) await waitForLogLine(join(options.directory, 'gateway.log'), 'every worker is listening');
    const created = await callJson(`${url}/api/token/`, 'POST', loginToken, { name: 'bench', remain_quota: 500_000_000_000_000 });
    if (created.success !== true) throw new Error(`could not create a token: ${JSON.stringify(created)}`);
    const listed = await callJson(`${url}/api/token/`, 'GET', loginToken);
    const tokenId = listed.data.items[0].id as number;
    const revealed = await callJson(`${url}/api/token/${tokenId}/key`, 'POST', loginToken);
    if (revealed.success !== true) throw new Error(`could not reveal the key: ${JSON.stringify(revealed)}`);
    return { url, pid: child.pid as number, apiKey: `sk-${revealed.data.key as string}`, tokenId, loginToken, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
