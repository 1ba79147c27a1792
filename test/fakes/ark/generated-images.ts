import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import { sampleJpeg } from './sample-image.js';

/** Where the fake serves the images it made, like Ark's TOS bucket host (upstreams.md §3.2). */
export const generatedImagesPath = '/ark-content-generation/';

/** The images the fake has handed out as URLs; its media route serves exactly these. */
export class GeneratedImages {
  readonly #names = new Set<string>();

  /**
   * A fresh image URL on the fake's origin, shaped like Ark's pre-signed TOS URLs: a path
   * ending in `.jpeg` and an `X-Tos-*` query (redacted in the fixtures; invented here).
   */
  add(origin: string, model: string): string {
    const name = `${model}/${Date.now()}-${randomBytes(6).toString('hex')}.jpeg`;
    this.#names.add(name);
    const query = `X-Tos-Algorithm=TOS4-HMAC-SHA256&X-Tos-Expires=86400&X-Tos-Signature=${randomBytes(16).toString('hex')}`;
    return `${origin}${generatedImagesPath}${name}?${query}`;
  }

  /** The answer to a GET of `path`: the JPEG when the fake made it, else 404. No key needed: the URL is the credential. */
  serve(path: string): PiecewiseAnswer {
    const name = decodeURIComponent(path.slice(generatedImagesPath.length));
    if (!this.#names.has(name)) {
      const text = 'NoSuchKey: The specified key does not exist.';
      return { status: 404, headers: { 'content-type': 'text/plain', 'content-length': String(text.length) }, pieces: [text], streamed: false };
    }
    return { status: 200, headers: { 'content-type': 'image/jpeg', 'content-length': String(sampleJpeg.length) }, pieces: [sampleJpeg], streamed: false };
  }
}
