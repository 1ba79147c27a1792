import autocannon from 'autocannon';

/** One load run: a fixed number of connections for a fixed time or number of requests. */
export interface LoadRequest {
  /** The target's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  /** POST unless told otherwise. */
  method?: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  /** A JSON body, sent with `content-type: application/json`. */
  body?: string;
  connections: number;
  /** Run this long; ignored when `requests` is set. */
  seconds?: number;
  /** Stop after this many requests instead. */
  requests?: number;
}

/** What a load run measured. */
export interface LoadResult {
  /** Responses received, of any status. */
  requests: number;
  requestsPerSecond: number;
  p50Milliseconds: number;
  p99Milliseconds: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
}

/** The value at `fraction` (0 to 1) of an ascending list, by nearest rank. */
function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] as number;
}

/**
 * Runs autocannon against one target. Latencies are taken from each response's own timing
 * (milliseconds with fractions) rather than from autocannon's histogram, which has a
 * resolution of 1 ms: too coarse to see a fraction of a millisecond added by a proxy.
 * A response's latency runs from writing the request to the end of the response body, so a
 * stream counts until its last event.
 */
export async function measureLoad(load: LoadRequest): Promise<LoadResult> {
  const latencies: number[] = [];
  let failures = 0;
  const started = process.hrtime.bigint();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${load.origin}${load.path}`,
        method: load.method ?? 'POST',
        headers: load.body === undefined ? load.headers : { 'content-type': 'application/json', ...load.headers },
        body: load.body,
        connections: load.connections,
        pipelining: 1,
        timeout: 30,
        ...(load.requests === undefined ? { duration: load.seconds ?? 10 } : { amount: load.requests }),
      },
      (error, finished) => (error === null || error === undefined ? resolve(finished) : reject(error)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      latencies.push(responseTime);
      if (statusCode < 200 || statusCode > 299) failures += 1;
    });
  });
  const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    requestsPerSecond: latencies.length / elapsedSeconds,
    p50Milliseconds: percentile(sorted, 0.5),
    p99Milliseconds: percentile(sorted, 0.99),
    failures: failures + result.errors + result.timeouts,
  };
}
