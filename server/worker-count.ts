import { availableParallelism } from 'node:os';
import type { GatewayConfig } from '../core/config/config-schema.js';

/** How many processes serve for `server.workers`: the number given, or one per CPU this process may use for `auto`. */
export function resolveWorkerCount(setting: GatewayConfig['server']['workers'], cpus: number = availableParallelism()): number {
  return setting === 'auto' ? Math.max(1, cpus) : setting;
}
