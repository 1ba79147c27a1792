import type { FieldPath } from '../../core/index.js';
import type { QiParameters } from './qi-client-schemas.js';
import type { QiImageInput } from './qi-image-reference.js';

/** A client's image request read into one shape, whichever form it came in (native, flat JSON, multipart). */
export interface QiImageJob {
  /** The prompt or edit instruction. */
  prompt: string;
  /** The input images in the order given. */
  images: QiImageInput[];
  /** Where the images belong, for a message about their number. */
  imagesPath: FieldPath;
  /** The parameters, `size` already as `width*height`. */
  parameters: QiParameters;
  /** Where the parameters were given: `parameters` (native) or the top level (flat). */
  parametersPath: FieldPath;
  /** How the client wants the images; `url` when it did not say. */
  responseFormat: 'url' | 'b64_json';
}
