/** A worker's request to the cluster primary for the metrics of every worker, aggregated. */
export interface ClusterMetricsRequest {
  type: 'model-gateway:metrics-request';
  id: number;
}

/** The primary's answer to a {@link ClusterMetricsRequest}: the Prometheus text, or why it has none. */
export type ClusterMetricsAnswer = { type: 'model-gateway:metrics-answer'; id: number } & ({ text: string } | { problem: string });

/** The message for {@link ClusterMetricsRequest}. */
export function clusterMetricsRequest(id: number): ClusterMetricsRequest {
  return { type: 'model-gateway:metrics-request', id };
}

/** The message for {@link ClusterMetricsAnswer}. */
export function clusterMetricsAnswer(id: number, result: { text: string } | { problem: string }): ClusterMetricsAnswer {
  return { type: 'model-gateway:metrics-answer', id, ...result };
}

/** True for a {@link ClusterMetricsRequest}. */
export function isClusterMetricsRequest(message: unknown): message is ClusterMetricsRequest {
  return hasType(message, 'model-gateway:metrics-request') && typeof (message as { id?: unknown }).id === 'number';
}

/** True for a {@link ClusterMetricsAnswer}. */
export function isClusterMetricsAnswer(message: unknown): message is ClusterMetricsAnswer {
  return hasType(message, 'model-gateway:metrics-answer') && typeof (message as { id?: unknown }).id === 'number';
}

function hasType(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}
