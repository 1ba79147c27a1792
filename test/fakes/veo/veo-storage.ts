import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer } from '../../../core/testing/index.js';
import { sampleMp4 } from './sample-mp4.js';

/**
 * The storage host the fake's downloads redirect to: a second origin serving each video at a
 * signed address without any key, like a signed object-store URL. A wrong or missing
 * signature answers 403, an unknown file 404, both with the object store's XML error.
 */
export class VeoStorage {
  readonly #signatures = new Map<string, string>();

  /** The origin its signed addresses use: the server's own, under another host name when one was given. */
  readonly origin: string;

  private constructor(readonly server: FakeServer, host: string | undefined) {
    this.origin = host === undefined ? server.url : `http://${host}:${new URL(server.url).port}`;
  }

  /** Starts the storage host; `host` names it in the signed addresses instead of 127.0.0.1. */
  static async start(host?: string): Promise<VeoStorage> {
    let storage: VeoStorage | undefined;
    const server = await startFakeServer(({ request, response }) => storage!.answer(request.path, request.query, response));
    storage = new VeoStorage(server, host);
    return storage;
  }

  /** A signed address of a video, valid for this fake's life. */
  signedAddress(fileId: string): string {
    let signature = this.#signatures.get(fileId);
    if (signature === undefined) {
      signature = randomBytes(16).toString('hex');
      this.#signatures.set(fileId, signature);
    }
    return `${this.origin}/generated-videos/${fileId}.mp4?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Expires=172800&X-Goog-Signature=${signature}`;
  }

  private answer(path: string, query: Record<string, string>, response: ServerResponse): void {
    const fileId = /^\/generated-videos\/([A-Za-z0-9_-]+)\.mp4$/.exec(path)?.[1];
    const signature = fileId === undefined ? undefined : this.#signatures.get(fileId);
    if (fileId === undefined || signature === undefined) return xmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
    if (query['X-Goog-Signature'] !== signature) return xmlError(response, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
    const bytes = sampleMp4(fileId);
    response.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) }).end(bytes);
  }
}

function xmlError(response: ServerResponse, status: number, code: string, message: string): void {
  const body = `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  response.writeHead(status, { 'content-type': 'application/xml; charset=UTF-8', 'content-length': String(Buffer.byteLength(body)) }).end(body);
}
