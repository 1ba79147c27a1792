import { request } from 'node:http';

/** An HTTP answer, read whole. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json(): any;
}

/**
 * One HTTP request on a connection of its own (so a cluster hands each request to the next
 * worker), for tests against gateway processes. `body` objects are sent as JSON.
 */
export function httpCall(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] ??= 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: false });
    sent.on('error', reject);
    sent.on('response', (incoming) => {
      let body = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      incoming.on('error', reject);
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, json: () => JSON.parse(body) }));
    });
    sent.end(payload);
  });
}
