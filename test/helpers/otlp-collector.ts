import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

/** One OTLP/HTTP export as the collector received it. */
export interface OtlpExport {
  path: string;
  contentType: string | undefined;
  /** The body as sent. */
  text: string;
  /** The body parsed as JSON. */
  body: any;
}

/** A collector on a free port that keeps every OTLP/HTTP JSON export it receives; closed when the test ends. */
export async function startCollector(t: Test): Promise<{ url: string; exports: OtlpExport[] }> {
  const exports: OtlpExport[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      exports.push({ path: request.url ?? '', contentType: request.headers['content-type'], text, body: JSON.parse(text) });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}
