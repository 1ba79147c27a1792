import cluster from 'node:cluster';

/** Set in the environment of the workers the gateway's own supervisor forks. */
export const gatewayWorkerVariable = 'MODEL_GATEWAY_WORKER';

/**
 * Whether this process is a worker of the gateway's own supervisor (`server.workers` above 1),
 * whose primary answers the workers' messages; not merely a cluster worker, as under another
 * cluster manager (PM2's cluster mode) nothing would answer them.
 */
export function isGatewayWorker(): boolean {
  return cluster.isWorker && process.env[gatewayWorkerVariable] === '1';
}
