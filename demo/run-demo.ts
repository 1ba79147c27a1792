/**
 * `npm run demo`: the gateway in front of a fake gx upstream, ready to try with curl and no
 * vendor account. It starts the fake (answers `echo: <last user text>`), writes a config
 * pointing a gx channel at it (memory store, a demo user, prices for the demo models),
 * starts the gateway, issues an unlimited API key and prints it with curl commands for every
 * route. It serves until Ctrl-C (SIGINT) or SIGTERM, then deletes its temporary directory.
 *
 * Options: --port N (default $DEMO_PORT or 3000; 0 picks a free port), --host ADDRESS
 * (default 127.0.0.1). Gateway logs go to standard error at LOG_LEVEL (default warn).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../server/build-app.js';
import { loadConfigFile } from '../core/config/load-config.js';
import { createLogger } from '../core/logging/create-logger.js';
import { generateLoginToken } from '../core/security/login-token.js';
import { TokenService } from '../core/tokens/token-service.js';
import { startFakeGxUpstream } from '../test/fakes/gx/fake-gx-upstream.js';
import { demoCommands } from './demo-commands.js';

const demoUserId = 1;

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: process.env.DEMO_PORT ?? '3000' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

/** The demo's config as YAML (JSON strings are valid YAML scalars, so any path quotes safely). */
function demoConfig(options: { host: string; port: number; directory: string; upstreamUrl: string; upstreamKey: string; loginToken: string }): string {
  return `# Written by npm run demo; deleted when the demo stops.
server: { host: ${JSON.stringify(options.host)}, port: ${options.port} }
storage: { driver: memory, data_dir: ${JSON.stringify(options.directory)} }
security: { encryption_key: ${randomBytes(32).toString('hex')} }
users:
  - { id: ${demoUserId}, username: demo, login_token: ${options.loginToken} }
groups: { default: { ratio: 1 } }
pricing:
  gx-2.5-pro: { input_per_mtok: 1.25, output_per_mtok: 10, cached_input_per_mtok: 0.31 }
  gx-2.5-flash: { input_per_mtok: 0.3, output_per_mtok: 2.5, cached_input_per_mtok: 0.075 }
  "gx-3*": { input_per_mtok: 2, output_per_mtok: 12 }
  text-embedding-004: { per_call: 0.0001 }
providers:
  - name: gx-fake
    plugin: gx
    base_url: ${JSON.stringify(options.upstreamUrl)}
    api_key: ${options.upstreamKey}
    models: [gx-2.5-pro, gx-2.5-flash, "gx-3*", text-embedding-004]
`;
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-demo-'));
  const upstreamKey = `gx-demo-${randomBytes(12).toString('hex')}`;
  const upstream = await startFakeGxUpstream({ apiKey: upstreamKey });
  const loginToken = generateLoginToken();
  const configFile = join(directory, 'gateway.yaml');
  writeFileSync(
    configFile,
    demoConfig({ host: values.host, port: Number(values.port), directory, upstreamUrl: upstream.url, upstreamKey, loginToken }),
    { mode: 0o600 },
  );
  const { config } = loadConfigFile(configFile);
  // Logs go to standard error so standard output holds only what the demo prints.
  const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', destination: pino.destination(2) }) as unknown as FastifyBaseLogger;
  const app = await buildApp(config, { configFile, logger });
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (error) {
    await Promise.all([app.close(), upstream.close()]);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }

  const tokens = app.gateway.resolve(TokenService);
  const token = await tokens.create(demoUserId, { name: 'demo', unlimited_quota: true });
  const apiKey = `sk-${await tokens.revealKey(demoUserId, token.id)}`;
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;

  const lines = [
    'Model Gateway demo',
    '',
    `  gateway           ${baseUrl}`,
    `  fake gx upstream  ${upstream.url} (answers "echo: <your last message>")`,
    `  config            ${configFile}`,
    `  API key           ${apiKey}`,
    `  login token       ${loginToken} (user "demo", for the /api/token management API)`,
    '',
    'Try:',
    '',
  ];
  for (const { title, command } of demoCommands(baseUrl, apiKey, loginToken)) lines.push(`# ${title}`, command, '');
  lines.push('Serving until Ctrl-C.', '');
  process.stdout.write(lines.join('\n'));

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the demo\n`);
    Promise.all([app.close(), upstream.close()])
      .then(() => {
        rmSync(directory, { recursive: true, force: true });
        process.exit(0);
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') console.error(`port ${values.port} is taken; pick another with --port N (0 for any free port)`);
  else console.error(error);
  process.exit(1);
});
