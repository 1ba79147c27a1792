import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError } from './config/config-error.js';
import { loadConfigFile } from './config/load-config.js';
import { createGatewayContainer } from './di/create-container.js';
import { GatewayError } from './errors/gateway-error.js';
import { createLogger } from './logging/create-logger.js';
import { createStoreBackend } from './store/create-store-backend.js';
import { UserService } from './users/user-service.js';

const usage = `Usage: model-gateway <command> [options]

Commands:
  start                      start the gateway
  config check               validate the config file and list every problem
  users create <username>    create a user and print its login token once

Options:
  --config <file>   the config file (default: $GATEWAY_CONFIG or config/gateway.yaml)
  --admin           with "users create": make the user an admin
  --help            show this help
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

/** Runs one CLI command and resolves to its exit code; `start` resolves only once the server has stopped. */
export async function runCli(argv: readonly string[], output: CliOutput = standardOutput): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { config: { type: 'string' }, admin: { type: 'boolean' }, help: { type: 'boolean' } },
    });
  } catch (error) {
    output.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals.length === 0) {
    output.out(usage);
    return values.help === true ? 0 : 2;
  }
  const configFile = values.config ?? process.env.GATEWAY_CONFIG ?? 'config/gateway.yaml';
  const command = positionals.join(' ');
  try {
    if (command === 'config check') {
      loadConfigFile(configFile);
      output.out(`${configFile}: OK\n`);
      return 0;
    }
    if (positionals[0] === 'users' && positionals[1] === 'create' && positionals.length === 3) {
      return await createUser(configFile, positionals[2] as string, values.admin === true, output);
    }
    if (command === 'start') return await start(configFile);
  } catch (error) {
    if (error instanceof ConfigError) {
      output.error(`${error.message}\n`);
      return 1;
    }
    if (GatewayError.is(error)) {
      output.error(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  output.error(`unknown command "${command}"\n\n${usage}`);
  return 2;
}

async function createUser(configFile: string, username: string, admin: boolean, output: CliOutput): Promise<number> {
  const { config } = loadConfigFile(configFile);
  const backend = await createStoreBackend(config.storage);
  try {
    const logger = createLogger({ level: 'silent' }) as unknown as FastifyBaseLogger;
    const { container } = createGatewayContainer({ config, configFile, logger, backend });
    const { user, loginToken } = await container.resolve(UserService).create(username, admin ? 'admin' : 'user');
    output.out(`created user ${user.username} (id ${user.id}). Its login token, shown only this once:\n${loginToken}\n`);
    return 0;
  } finally {
    await backend.close();
  }
}

async function start(configFile: string): Promise<number> {
  const { config } = loadConfigFile(configFile);
  const logger = createLogger();
  const app = await buildApp(config, { configFile, logger: logger as unknown as FastifyBaseLogger });
  await app.listen({ host: config.server.host, port: config.server.port });
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting now');
        resolve(1);
        return;
      }
      stopping = true;
      logger.info({ signal, graceMilliseconds: config.server.shutdown_grace_ms }, 'stopping: no new connections, finishing requests in flight');
      const deadline = setTimeout(() => {
        logger.warn('shutdown deadline passed: closing the connections still open');
        app.server.closeAllConnections();
      }, config.server.shutdown_grace_ms);
      deadline.unref();
      app.close().then(
        () => {
          clearTimeout(deadline);
          logger.info('stopped');
          resolve(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'error while stopping');
          resolve(1);
        },
      );
    };
    process.on('SIGTERM', () => stop('SIGTERM'));
    process.on('SIGINT', () => stop('SIGINT'));
  });
}
