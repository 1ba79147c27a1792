import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { ConfigError } from '../core/config/config-error.js';
import type { GatewayConfig } from '../core/config/config-schema.js';

/**
 * Why the config cannot run several workers, or undefined when it can. Several workers need the
 * redis or the postgres driver, whose channel (pub/sub, LISTEN/NOTIFY) reaches every process.
 * With memory each worker would have a store of its own. With sqlite the balances would stay
 * exact (every ledger write is an IMMEDIATE transaction, which also holds across processes),
 * but a token change reaches the other workers' in-memory token caches only through the
 * store's channel, and on sqlite that channel stays inside one process: a token disabled
 * through one worker would still pass in the others until their cache ages out.
 * `auto` counts as several, so the answer does not depend on the machine.
 */
export function workerStorageProblem(config: Pick<GatewayConfig, 'server' | 'storage'>): string | undefined {
  if (config.server.workers === 1 || config.storage.driver === 'redis' || config.storage.driver === 'postgres') return undefined;
  const reason =
    config.storage.driver === 'memory'
      ? 'each worker would have a memory store of its own'
      : 'a token disabled or changed through one worker would still pass in the others for up to a minute, because only redis and postgres tell every process';
  return `more than one worker needs storage.driver redis or postgres: with ${config.storage.driver}, ${reason}; use redis or postgres, or set workers to 1`;
}

/** Throws a {@link ConfigError} naming `server.workers` (and its line in `file`) when {@link workerStorageProblem} finds one. */
export function assertWorkersFitStorage(config: Pick<GatewayConfig, 'server' | 'storage'>, file: string): void {
  const message = workerStorageProblem(config);
  if (message !== undefined) throw new ConfigError(file, [{ path: 'server.workers', message, line: lineOfWorkers(file) }]);
}

function lineOfWorkers(file: string): number | undefined {
  try {
    const lineCounter = new LineCounter();
    const node = parseDocument(readFileSync(file, 'utf8'), { lineCounter }).getIn(['server', 'workers'], true);
    return isNode(node) && node.range ? lineCounter.linePos(node.range[0]).line : undefined;
  } catch {
    return undefined;
  }
}
