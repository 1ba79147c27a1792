import { GatewayError, invalidRequest, type ProviderHost } from '../../core/index.js';
import type { SrReferenceSource } from './read-sr-reference.js';
import { sniffSrImageType, srFetchedMimeTypes, srImageExtension } from './sr-image-types.js';
import type { SrReferenceFile } from './to-sr-request.js';

const param = 'input_reference';

/**
 * The bytes of the reference image: an uploaded file as it came, or a URL or inline data
 * fetched through the media guard (`host.media.fetch`: SSRF checks, the operator's size and
 * time caps; data: URIs are decoded without a fetch). Whatever the headers or the URI
 * declared, the bytes must be png, jpeg or webp, and are sent as the type they show. A
 * refusal is the guard's 400 (its code kept, such as `media_url_not_allowed`) with
 * `input_reference: ` in front and the param set.
 */
export async function resolveSrReference(host: ProviderHost, source: SrReferenceSource, signal: AbortSignal): Promise<SrReferenceFile> {
  if (source.kind === 'upload') {
    const { upload, mimeType } = source;
    return { filename: upload.filename === '' ? `input_reference.${srImageExtension(mimeType)}` : upload.filename, mimeType, data: upload.data };
  }
  let data: Buffer;
  try {
    data = (await host.media.fetch(source.kind === 'url' ? source.url : source.dataUri, { allowedMimeTypes: srFetchedMimeTypes, signal })).data;
  } catch (error) {
    if (GatewayError.is(error) && error.statusCode === 400) throw new GatewayError(400, error.code, `${param}: ${error.message}`, { param, cause: error });
    throw error;
  }
  const mimeType = sniffSrImageType(data);
  if (mimeType === undefined) throw invalidRequest(`${param}: the image is not a png, jpeg or webp image; send one of those`, { param });
  return { filename: `input_reference.${srImageExtension(mimeType)}`, mimeType, data };
}
