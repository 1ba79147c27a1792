import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';

/** One image the fake made, as a test inspects it. */
export interface GeneratedImage {
  /** The `request_id` of the answer that listed it. */
  requestId: string;
  /** Its place among that answer's images, from 0. */
  index: number;
  model: string;
  prompt: string;
  /** The request's input images, exactly as sent and in the order sent. */
  inputImages: string[];
  /** The `parameters.size` it was made at. */
  size: string;
  contentType: string;
  bytes: Uint8Array;
}

const resultPath = /^\/results\/[0-9a-f-]+\/[0-9]+\.png$/;
/** How long DashScope's result URLs stay valid (upstreams.md §4.3). */
const validitySeconds = 24 * 60 * 60;

/** Generated images by URL path, and their downloads. */
export class ResultImages {
  readonly #images = new Map<string, GeneratedImage>();

  /** Every image made so far, by the path of its URL (`new URL(url).pathname`). */
  get all(): ReadonlyMap<string, GeneratedImage> {
    return this.#images;
  }

  /**
   * Keeps an image and returns its URL, shaped like DashScope's signed object-store links
   * (`...png?Expires=...&OSSAccessKeyId=...&Signature=...`, upstreams.md §4.3) but on the fake.
   */
  add(origin: string, image: GeneratedImage): string {
    const path = `/results/${image.requestId}/${image.index}.png`;
    this.#images.set(path, image);
    const expires = Math.floor(Date.now() / 1000) + validitySeconds;
    return `${origin}${path}?Expires=${expires}&OSSAccessKeyId=fake-access-key&Signature=${randomBytes(12).toString('base64url')}`;
  }

  /** Whether a GET of `path` is a result download. */
  static isResultPath(path: string): boolean {
    return resultPath.test(path);
  }

  /** The download of `path`: the image's bytes, or the object store's 404. */
  download(path: string): PiecewiseAnswer {
    const image = this.#images.get(path);
    if (image === undefined) {
      const text = '<?xml version="1.0" encoding="UTF-8"?>\n<Error>\n  <Code>NoSuchKey</Code>\n  <Message>The specified key does not exist.</Message>\n</Error>\n';
      return { status: 404, headers: { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
    }
    return { status: 200, headers: { 'content-type': image.contentType, 'content-length': String(image.bytes.length) }, pieces: [image.bytes], streamed: false };
  }
}
