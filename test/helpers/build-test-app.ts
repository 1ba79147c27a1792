import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import { buildApp, type BuildAppOptions } from '../../server/build-app.js';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import { createLogger } from '../../core/logging/create-logger.js';
import { UserService } from '../../core/users/user-service.js';
import { storageFor, testConfig, type StorageDriver } from './test-config.js';

/** An app under test, its config, and every log line it wrote. */
export interface TestApp {
  app: FastifyInstance;
  config: GatewayConfig;
  logLines: string[];
  /** Creates a user and returns its login token. */
  createUser(username: string): Promise<string>;
  /** `inject` with `Authorization: Bearer <loginToken>`. */
  asUser(loginToken: string, options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** How {@link buildTestApp} builds the app: buildApp's options, a whole config instead of the driver's, and the log level (default `info`). */
export type TestAppOptions = Omit<BuildAppOptions, 'logger'> & { config?: GatewayConfig; logLevel?: string };

/** A logger that keeps every line it writes, for assertions (and the secret canary). */
export function capturingLogger(lines: string[], level = 'info'): FastifyBaseLogger {
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return createLogger({ level, destination }) as unknown as FastifyBaseLogger;
}

/** Builds the gateway on the given driver (or config), closing it when the test ends. */
export async function buildTestApp(
  t: Test,
  driver: StorageDriver,
  overrides: Record<string, unknown> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const { logLevel, ...appOptions } = options;
  const config = options.config ?? testConfig(storageFor(t, driver), overrides);
  const logLines: string[] = [];
  const app = await buildApp(config, { ...appOptions, logger: capturingLogger(logLines, logLevel) });
  t.teardown(() => app.close());
  return {
    app,
    config,
    logLines,
    async createUser(username) {
      return (await app.gateway.resolve(UserService).create(username)).loginToken;
    },
    asUser(loginToken, injectOptions) {
      return app.inject({ ...injectOptions, headers: { authorization: `Bearer ${loginToken}`, ...injectOptions.headers } });
    },
  };
}
