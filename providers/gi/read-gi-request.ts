import { invalidRequest, type ImageRequest, type ImageUpload } from '../../core/index.js';
import { OncePerRequest, parseClientFields, quoted, type UploadFile } from '../../core/kit/index.js';
import { giRequestSchema, type GiRequestFields } from './gi-request-schema.js';

/** The most reference images one gpt-image edit takes (upstreams.md §2.7: up to 16 `image[]`). */
const giMostReferenceImages = 16;

/** Where one image of a request comes from; `field` names it in error messages. */
export type GiImageSource = { field: string; upload: ImageUpload } | { field: string; url: string };

/** A request checked against gi's rules, before any image is fetched. */
export interface GiRequestPlan {
  fields: GiRequestFields;
  /** Reference images in order: uploaded files first, then `image`, then `images`. Empty for text-to-image. */
  references: GiImageSource[];
  mask?: GiImageSource;
}

const referenceFileFields = new Set(['image', 'image[]']);

const isFetchable = (source: string) => /^(https?:\/\/|data:)/i.test(source.trim());

function urlSource(url: string, field: string): GiImageSource {
  if (!isFetchable(url)) throw invalidRequest(`${field}: expected an http(s) URL or a data: URI of a png, jpeg or webp image`, { param: field });
  return { field, url };
}

/**
 * Checks a client's image request against gi's rules (spec part 2, "GPT-style family") without
 * any I/O. `edit` is the `/v1/images/edits` route, which needs at least one reference image;
 * generations take them too (image-to-image). Multipart files come in `image` or `image[]`,
 * plus at most one `mask`.
 */
export function readGiRequest(request: ImageRequest, operation: 'generate' | 'edit'): GiRequestPlan {
  const { uploads = [], ...rest } = request;
  if (rest.contents !== undefined) {
    throw invalidRequest('contents: not used by gi models; send prompt, and image or images for reference images', { param: 'contents' });
  }
  const known = Object.keys(giRequestSchema.shape).join(', ');
  const unknownField = (field: string) => `unknown field ${quoted(field)}: gi models take ${known}`;
  const fields = parseClientFields(giRequestSchema, rest, { unknownField });
  const references: GiImageSource[] = [];
  let mask: GiImageSource | undefined;
  for (const upload of uploads) {
    if (referenceFileFields.has(upload.field)) references.push({ field: upload.field, upload });
    else if (upload.field === 'mask' && mask === undefined && fields.mask === undefined) mask = { field: 'mask', upload };
    else if (upload.field === 'mask') throw invalidRequest('mask: send one mask at most', { param: 'mask' });
    else throw invalidRequest(`unknown file field ${quoted(upload.field)}: send reference images as image[] (or image) and a mask as mask`, { param: upload.field });
  }
  const image = fields.image;
  if (typeof image === 'string') references.push(urlSource(image, 'image'));
  else image?.forEach((url, index) => references.push(urlSource(url, `image[${index}]`)));
  fields.images?.forEach((url, index) => references.push(urlSource(url, `images[${index}]`)));
  if (fields.mask !== undefined) mask = urlSource(fields.mask, 'mask');

  if (references.length > giMostReferenceImages) {
    throw invalidRequest(`image: at most ${giMostReferenceImages} reference images per request (got ${references.length})`, { param: 'image' });
  }
  if (operation === 'edit' && references.length === 0) {
    throw invalidRequest('image: an edit needs the image to edit; send image or images (a URL or data: URI), or an image[] file', { param: 'image' });
  }
  if (mask !== undefined && references.length === 0) throw invalidRequest('mask: a mask needs an image to edit; send image or images too', { param: 'mask' });
  return { fields, references, mask };
}

/** A request's images in hand, ready to go upstream. */
export interface GiImageFiles {
  references: UploadFile[];
  mask?: UploadFile;
}

/** A checked request with a slot for its images, which the first channel fetches and a failover reuses. */
export interface PreparedGiRequest extends GiRequestPlan {
  files: OncePerRequest<GiImageFiles>;
}

/** The plugin's `prepare` of either route: runs once per request, before any quota is touched; refuses as {@link readGiRequest}. */
export function prepareGiRequest(request: ImageRequest, operation: 'generate' | 'edit'): PreparedGiRequest {
  return { ...readGiRequest(request, operation), files: new OncePerRequest() };
}
