import { request, type IncomingHttpHeaders } from 'node:http';

/** An answer as it came off the wire. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with `node:http`, so a fake upstream's test sees the exact bytes, and each hop
 * of a redirect (nothing is followed). Object bodies are sent as JSON, strings as they are.
 */
export function rawRequest(url: string, method: 'GET' | 'POST', body?: unknown, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}
