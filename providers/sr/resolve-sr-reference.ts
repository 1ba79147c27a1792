import { imageUploadFile, invalidRequest, mediaErrorAboutField, type ProviderHost, type UploadFile } from '../../core/index.js';
import type { SrReferenceSource } from './read-sr-reference.js';
import { sniffSrImageType, srFetchedMimeTypes } from './sr-image-types.js';

const param = 'input_reference';

/**
 * The bytes of the reference image: an uploaded file as it came, or a URL or inline data
 * fetched through the media guard (`host.media.fetch`: SSRF checks, the operator's size and
 * time caps; data: URIs are decoded without a fetch). Whatever the headers or the URI
 * declared, the bytes must be png, jpeg or webp, and are sent as the type they show. A
 * refusal is the guard's 400 (its code kept, such as `media_url_not_allowed`) with
 * `input_reference: ` in front and the param set.
 */
export async function resolveSrReference(host: ProviderHost, source: SrReferenceSource, signal: AbortSignal): Promise<UploadFile> {
  if (source.kind === 'upload') {
    return imageUploadFile(source.upload.data, source.mimeType, param, source.upload.filename);
  }
  let data: Buffer;
  try {
    data = (await host.media.fetch(source.kind === 'url' ? source.url : source.dataUri, { allowedMimeTypes: srFetchedMimeTypes, signal })).data;
  } catch (error) {
    throw mediaErrorAboutField(error, param);
  }
  const mimeType = sniffSrImageType(data);
  if (mimeType === undefined) throw invalidRequest(`${param}: the image is not a png, jpeg or webp image; send one of those`, { param });
  return imageUploadFile(data, mimeType, param);
}
