import { mediaErrorAboutField, type ProviderHost } from '../../core/index.js';
import type { DsrReference } from './collect-dsr-inputs.js';

/**
 * The image types reference images may have. Ark's Seedream docs list jpeg, png, webp, bmp,
 * tiff and gif for reference images (public doc summaries; upstreams.md §3.2 names no list).
 */
export const dsrReferenceMimeTypes = ['image/jpeg', 'image/png', 'image/webp', 'image/bmp', 'image/tiff', 'image/gif'] as const;

/**
 * Every reference image as a data URI, in order. URLs are fetched through the gateway's
 * SSRF guard (private addresses refused, size and time capped) and data URIs decoded by it,
 * both with the types above only; the upstream then never fetches a client-given URL itself.
 * A refusal is the guard's 400 with the field named in front.
 */
export async function fetchDsrReferences(host: ProviderHost, references: readonly DsrReference[], signal: AbortSignal): Promise<string[]> {
  const images: string[] = [];
  for (const reference of references) {
    try {
      const media = await host.media.fetch(reference.source, { allowedMimeTypes: dsrReferenceMimeTypes, signal });
      images.push(`data:${media.mimeType};base64,${media.data.toString('base64')}`);
    } catch (error) {
      throw mediaErrorAboutField(error, reference.field, reference.label);
    }
  }
  return images;
}
