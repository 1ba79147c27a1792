import { request } from 'node:http';

/** How an answer read from a gateway process ended. */
export interface ReadAnswer {
  status: number;
  body: string;
  /** `complete` when the body ended normally, `cut` when the connection closed in the middle of it. */
  ending: 'complete' | 'cut';
}

/**
 * One request on a connection of its own; resolves with whatever arrived, also when the
 * connection is cut in the middle of the answer, and rejects only when no answer came at all.
 */
export function readAnswer(url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<ReadAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: options.method ?? (payload === undefined ? 'GET' : 'POST'), headers, agent: false }, (incoming) => {
      let body = '';
      let settled = false;
      const finish = (ending: ReadAnswer['ending']) => {
        if (settled) return;
        settled = true;
        resolve({ status: incoming.statusCode ?? 0, body, ending });
      };
      incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => finish(incoming.complete ? 'complete' : 'cut'));
      incoming.on('aborted', () => finish('cut'));
      incoming.on('error', () => finish('cut'));
      incoming.on('close', () => finish(incoming.complete ? 'complete' : 'cut'));
    });
    sent.on('error', reject);
    sent.end(payload);
  });
}
