import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, formatConfigProblem } from '../core/config/config-error.js';
import { unusedStorageKeys, type GatewayConfig } from '../core/config/config-schema.js';
import { loadConfigFile } from '../core/config/load-config.js';
import { packageRoot } from '../core/config/package-root.js';
import { createUserCommand, listUsersCommand } from './users-commands.js';
import { GatewayError } from '../core/errors/gateway-error.js';
import { StartupError } from '../core/errors/startup-error.js';
import { createLogger } from '../core/logging/create-logger.js';
import { runClusterPrimary } from './cluster-supervisor.js';
import { resolveWorkerCount } from './worker-count.js';
import { assertWorkersFitStorage } from './worker-storage-check.js';
import { copyStorage } from './storage-copy-command.js';
import { assertServedModelsPriced, checkConfigFile } from './check-config-file.js';
import { reloadCommand } from './reload-command.js';
import { storageFileFailure } from './storage-file-failure.js';

const usage = `Usage: model-gateway <command> [options]

Commands:
  start                      start the gateway (server.workers processes on one port)
  config check               run every check start runs (the file, prices, plugins and their options) and list every problem
  reload                     check the config file, then have the running gateway re-read it (SIGHUP to the pid in
                             storage.data_dir/gateway.pid) and print what changed
  users create <username>    create a user and print its login token once
  users list                 list the users: id, username, role, status, creation date
  storage copy --from <config> --to <config>
                             copy everything durable from one config's store into the empty
                             store of another (sqlite, redis, postgres); stop the gateways first

Options:
  --config <file>   the config file (default: $GATEWAY_CONFIG or config/gateway.yaml)
  --admin           with "users create": make the user an admin
  --from, --to      with "storage copy": the configs of the source and the target store
  --help            show this help
  --version         print the version
`;

/** Where the CLI writes; tests capture it. */
export interface CliOutput {
  out: (text: string) => void;
  error: (text: string) => void;
}

const standardOutput: CliOutput = {
  out: (text) => process.stdout.write(text),
  error: (text) => process.stderr.write(text),
};

/** The version in the package's own package.json. */
function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** Runs one CLI command and resolves to its exit code; `start` resolves only once the server has stopped. */
export async function runCli(argv: readonly string[], output: CliOutput = standardOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { config: { type: 'string' }, admin: { type: 'boolean' }, from: { type: 'string' }, to: { type: 'string' }, help: { type: 'boolean' }, version: { type: 'boolean' } },
    });
  } catch (error) {
    output.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version === true) {
    output.out(`model-gateway ${packageVersion()}\n`);
    return 0;
  }
  if (values.help === true || positionals.length === 0) {
    output.out(usage);
    return values.help === true ? 0 : 2;
  }
  const configFile = values.config ?? process.env.GATEWAY_CONFIG ?? 'config/gateway.yaml';
  const command = positionals.join(' ');
  try {
    if (command === 'config check') {
      const { warnings } = await checkConfigFile(configFile);
      output.out(`${configFile}: OK\n`);
      for (const warning of warnings) output.error(`warning: ${formatConfigProblem(warning)}\n`);
      return 0;
    }
    if (command === 'reload') return await reloadCommand(configFile, output);
    if (positionals[0] === 'users' && positionals[1] === 'create' && positionals.length === 3) {
      return await createUserCommand(configFile, positionals[2] as string, values.admin === true, output.out);
    }
    if (command === 'users list') return await listUsersCommand(configFile, output.out);
    if (command === 'start') return await start(configFile);
    if (command === 'storage copy') {
      if (values.from === undefined || values.to === undefined) {
        output.error(`storage copy needs both --from <config> and --to <config>\n\n${usage}`);
        return 2;
      }
      output.out(await copyStorage(values.from, values.to));
      return 0;
    }
  } catch (caught) {
    const error = command === 'storage copy' ? caught : withStorageFileFailure(caught, configFile);
    if (error instanceof ConfigError) {
      output.error(`${error.message}\n`);
      return 1;
    }
    if (GatewayError.is(error) || StartupError.is(error) || command === 'storage copy') {
      output.error(`${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
  output.error(`unknown command "${command}"\n\n${usage}`);
  return 2;
}

/** {@link storageFileFailure} with the storage of the config file: a file system error of the gateway's own files as one line. */
function withStorageFileFailure(error: unknown, configFile: string): unknown {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string' || (syscall === undefined && !code.startsWith('SQLITE_'))) return error;
  try {
    return storageFileFailure(error, loadConfigFile(configFile).config.storage, configFile);
  } catch {
    return error;
  }
}

async function start(configFile: string): Promise<number> {
  const { config } = loadConfigFile(configFile);
  assertWorkersFitStorage(config, configFile);
  assertServedModelsPriced(config, configFile);
  const workers = resolveWorkerCount(config.server.workers);
  if (workers > 1 && cluster.isPrimary) {
    return runClusterPrimary({
      workers,
      exec: process.argv[1] ?? '',
      args: ['start', '--config', configFile],
      firstWorkerAlone: firstWorkerStartsAlone(config),
      // Each worker gives its requests the grace, then closes its stores and providers.
      stopDeadlineMilliseconds: config.server.shutdown_grace_ms + 15_000,
      logger: createLogger(),
      configFile,
      storage: config.storage,
    });
  }
  const logger = cluster.worker === undefined ? createLogger() : createLogger().child({ worker: cluster.worker.id });
  if (cluster.worker === undefined || cluster.worker.id === 1) for (const unused of unusedStorageKeys(config.storage)) logger.warn({ path: unused.path }, unused.message);
  // Loaded only by a process that serves: a cluster primary then never loads the app, its
  // plugins and providers.
  const { serveGateway } = await import('./serve-gateway.js');
  return serveGateway(config, configFile, logger);
}

/**
 * Whether the first of several workers must start alone, the others once it listens: with no
 * user in the config, a worker creates the first admin if the store has none; with no
 * encryption key, it generates the key file on a first start. Either must exist once, before
 * the others look for it: two workers writing a key each would seal tokens under different keys.
 */
export function firstWorkerStartsAlone(config: Pick<GatewayConfig, 'users' | 'security'>): boolean {
  return !config.users.some((user) => user.login_token !== '') || config.security.encryption_key === '';
}

