import { ConfigError } from '../core/config/config-error.js';
import { configLineFinder } from '../core/config/config-lines.js';
import type { GatewayConfig } from '../core/config/config-schema.js';

/**
 * Why the config cannot run several workers, or undefined when it can. Every driver but
 * memory can: with memory each worker would have a store of its own. On sqlite the workers
 * share the file (every ledger write is an IMMEDIATE transaction, which holds across
 * processes) and tell each other of token changes through the cluster primary
 * (`server/cluster-store-messages.ts`); on redis through its pub/sub, on postgres through
 * LISTEN/NOTIFY. `auto` counts as
 * several, so the answer does not depend on the machine.
 */
export function workerStorageProblem(config: Pick<GatewayConfig, 'server' | 'storage'>): string | undefined {
  if (config.server.workers === 1 || config.storage.driver !== 'memory') return undefined;
  return 'more than one worker needs storage.driver sqlite, redis or postgres: with memory, each worker would have a memory store of its own; use sqlite, redis or postgres, or set workers to 1';
}

/** Throws a {@link ConfigError} naming `server.workers` (and its line in `file`) when {@link workerStorageProblem} finds one. */
export function assertWorkersFitStorage(config: Pick<GatewayConfig, 'server' | 'storage'>, file: string): void {
  const message = workerStorageProblem(config);
  if (message !== undefined) throw new ConfigError(file, [{ path: 'server.workers', message, line: configLineFinder(file)(['server', 'workers']) }]);
}
