/**
 * `npm run demo`: the gateway in front of fake upstreams for every model family, ready to try
 * with curl and no vendor account. It starts the vendor fakes of `test/fakes/` (gx, OpenAI,
 * Ark, DashScope, Veo), writes a config with one channel per family on them (memory store, a
 * demo user, prices from the shipped catalog) and a sample WAV, starts the gateway, issues an
 * unlimited API key, submits one video task per family and makes an asset group (so the poll
 * and asset lines carry real ids), and prints the key with a curl line per route group. It
 * serves until Ctrl-C (SIGINT) or SIGTERM, then deletes its temporary directory.
 *
 * Options ({@link demoUsage}): --port N (default $DEMO_PORT or 3000; 0 picks a free port),
 * --host ADDRESS (default 127.0.0.1), --help; a bad one is a single line and exit 2. Gateway logs go to standard error at LOG_LEVEL (default warn).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildApp } from '../server/build-app.js';
import { loadConfigFile } from '../core/config/load-config.js';
import { createLogger } from '../core/logging/create-logger.js';
import { generateLoginToken } from '../core/security/login-token.js';
import { TokenService } from '../core/tokens/token-service.js';
import { pcmTone, wavFile } from '../test/fakes/openai/fake-openai-upstream.js';
import { DemoArgumentError, demoUsage, parseDemoArguments } from './demo-arguments.js';
import { demoSections, demoVideoRequests } from './demo-commands.js';
import { demoConfig, demoUserId } from './demo-config.js';
import { startDemoUpstreams, type DemoUpstreams } from './demo-upstreams.js';

let values: { host: string; port: number };
try {
  const parsed = parseDemoArguments(process.argv.slice(2));
  if (parsed.help) {
    process.stdout.write(demoUsage);
    process.exit(0);
  }
  values = parsed;
} catch (error) {
  if (!(error instanceof DemoArgumentError)) throw error;
  process.stderr.write(`demo: ${error.message}\n`);
  process.exit(2);
}

/** POSTs `body` as the demo's key would and answers the JSON; anything but 200 stops the demo, naming the route. */
async function postAsDemo(app: FastifyInstance, apiKey: string, url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (response.statusCode !== 200) throw new Error(`the demo's own POST ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json();
}

/** The fakes' addresses, one a line, with the families each one serves. */
function fakeAddresses({ gx, openai, ark, dashscope, veo }: DemoUpstreams): string[] {
  return [
    `gx         ${gx.fake.url}  (gx)`,
    `OpenAI     ${openai.fake.url}  (gp, gi, audio, sr)`,
    `Ark        ${ark.fake.url}  (dsr, dsx and sdx, the asset library)`,
    `DashScope  ${dashscope.fake.url}  (qi, wn, hx)`,
    `Veo        ${veo.fake.url}  (vo)`,
  ];
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'model-gateway-demo-'));
  let upstreams: DemoUpstreams | undefined;
  let app: FastifyInstance | undefined;
  const stopAll = async () => {
    await Promise.all([app?.close(), upstreams?.close()]);
    rmSync(directory, { recursive: true, force: true });
  };

  try {
    upstreams = await startDemoUpstreams();
    const loginToken = generateLoginToken();
    const configFile = join(directory, 'gateway.yaml');
    writeFileSync(configFile, demoConfig({ host: values.host, port: values.port, directory, loginToken, upstreams }), { mode: 0o600 });
    const sampleAudio = join(directory, 'sample.wav');
    writeFileSync(sampleAudio, wavFile(pcmTone(1)));
    const { config } = loadConfigFile(configFile);
    // Logs go to standard error so standard output holds only what the demo prints.
    const logger = createLogger({ level: process.env.LOG_LEVEL ?? 'warn', destination: pino.destination(2) }) as unknown as FastifyBaseLogger;
    app = await buildApp(config, { configFile, logger });
    await app.listen({ host: config.server.host, port: config.server.port });

    const tokens = app.gateway.resolve(TokenService);
    const token = await tokens.create(demoUserId, { name: 'demo', unlimited_quota: true });
    const apiKey = `sk-${await tokens.revealKey(demoUserId, token.id)}`;
    const { port } = app.server.address() as AddressInfo;
    const baseUrl = `http://${config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host}:${port}`;
    const videoTaskIds: string[] = [];
    for (const { body } of demoVideoRequests) videoTaskIds.push(String((await postAsDemo(app, apiKey, '/v1/video/generations', body)).task_id));
    const assetGroupId = String((await postAsDemo(app, apiKey, '/v1/asset-groups', { name: 'demo-cast' })).id);

    const lines = [
      'Model Gateway demo: the gateway in front of fake upstreams for every model family',
      '',
      `  gateway         ${baseUrl}`,
      ...fakeAddresses(upstreams).map((line, index) => `${index === 0 ? '  fake upstreams' : '                '}  ${line}`),
      '                  (chat answers "echo: <your last message>"; images, audio and videos are small samples)',
      `  config          ${configFile}`,
      `  API key         ${apiKey}`,
      `  login token     ${loginToken} (user "demo", for the /api/token management API)`,
      `  sample audio    ${sampleAudio} (the transcription line uploads it)`,
      '',
      'Paste any line below into a shell; lines starting with # are comments.',
      '',
    ];
    for (const section of demoSections({ baseUrl, apiKey, loginToken, sampleAudio, videoTaskIds, assetGroupId, minPollIntervalMs: config.tasks.min_poll_interval_ms })) {
      lines.push(`# ---- ${section.heading}`, ...section.notes.map((note) => `# ${note}`), '');
      for (const { title, command } of section.commands) lines.push(`# ${title}`, command, '');
    }
    lines.push('Serving until Ctrl-C.', '');
    process.stdout.write(lines.join('\n'));
  } catch (error) {
    await stopAll();
    throw error;
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the demo\n`);
    stopAll()
      .then(() => process.exit(0))
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
  if (code === 'EADDRINUSE') console.error(`demo: port ${values.port} is taken; pick another with npm run demo -- --port N (0 for any free port)`);
  else if (code === 'EACCES') console.error(`demo: not allowed to listen on port ${values.port} (ports below 1024 need privileges); pick another with npm run demo -- --port N`);
  else if (code === 'EADDRNOTAVAIL') console.error(`demo: ${values.host} is not an address of this machine; pick another with npm run demo -- --host ADDRESS`);
  else console.error(error);
  process.exit(1);
});
