import { fieldError, sniffImageType } from '../../core/kit/index.js';
import type { DsxModelProfile } from './dsx-model-profiles.js';

/** What a media reference is: an image, a video or an audio clip (`image_url`, `video_url`, `audio_url`). */
export type DsxMediaKind = 'image' | 'video' | 'audio';

/** The largest inline image accepted, decoded (Ark's documented limit for reference images is 30 MB [L]). */
const maxDsxInlineImageBytes = 30 * 1024 * 1024;

// The reference image formats Seedance takes (jpeg, png, webp, bmp, tiff, gif: Ark's
// image-to-video docs as summarised publicly [L]).
const dsxInlineImageTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/tiff', 'image/bmp'];

const assetPattern = /^asset:\/\/([A-Za-z0-9][A-Za-z0-9._-]{0,127})$/;
const dataUriPattern = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s;
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

function inlineImage(base64: string, param: string): string {
  const data = Buffer.from(base64, 'base64');
  if (data.length > maxDsxInlineImageBytes) {
    throw fieldError(param, `the image is ${data.length} bytes; inline images may be at most ${maxDsxInlineImageBytes} bytes, pass a URL instead`);
  }
  const type = sniffImageType(data, dsxInlineImageTypes);
  if (type === undefined) throw fieldError(param, 'the data is not a jpeg, png, webp, bmp, tiff or gif image');
  return `data:${type};base64,${data.toString('base64')}`;
}

/**
 * Checks one media reference (spec part 2; upstreams.md §3.3–§3.4). The upstream fetches
 * URLs itself, so an http(s) URL passes through; an image may also be a base64 data URI
 * or raw base64, whose bytes must be an image type Seedance takes (re-sent as a data URI of
 * the type its bytes show). Videos and audio clips are URLs or assets only (§3.4). An
 * `asset://<virtual id>` reference is for the models with the asset library (its id is
 * `assetId`). Anything else is a 400 naming `param`.
 */
export function checkDsxMediaUrl(value: string, kind: DsxMediaKind, param: string, profile: DsxModelProfile): { url: string; assetId?: string } {
  const asset = assetPattern.exec(value);
  if (asset !== null) {
    if (!profile.assets) throw fieldError(param, `asset:// references are for the 2.0 models (sdx-2-0, sdx-2-0-fast), not ${profile.id}`);
    return { url: value, assetId: asset[1]! };
  }
  if (value.startsWith('asset:')) throw fieldError(param, 'expected asset://<virtual id>, as GET /v1/assets lists it');
  if (/^https?:\/\//i.test(value)) {
    if (!URL.canParse(value) || new URL(value).hostname === '') throw fieldError(param, `"${value.slice(0, 80)}" is not a valid URL`);
    return { url: value };
  }
  const orAsset = profile.assets ? ', or asset://<virtual id>' : '';
  const expected = kind === 'image' ? `an http(s) URL, a base64 data URI or raw base64${orAsset}` : `an http(s) URL${orAsset}; a ${kind} cannot be sent inline`;
  if (value.startsWith('data:')) {
    const parts = dataUriPattern.exec(value);
    if (kind !== 'image' || parts === null || !parts[2]!.split(';').includes('base64')) throw fieldError(param, `expected ${expected}`);
    const payload = parts[3]!.replace(/\s+/g, '');
    if (!base64Pattern.test(payload)) throw fieldError(param, `the data URI's payload is not base64`);
    return { url: inlineImage(payload, param) };
  }
  const compact = value.replace(/\s+/g, '');
  if (kind === 'image' && compact.length >= 16 && base64Pattern.test(compact)) return { url: inlineImage(compact, param) };
  throw fieldError(param, `expected ${expected}`);
}

/** `metadata.callback_url` as it goes upstream: an https URL with a host, else a 400. */
export function checkDsxCallbackUrl(value: string): string {
  const param = 'metadata.callback_url';
  if (!URL.canParse(value)) throw fieldError(param, `"${value.slice(0, 80)}" is not a URL; give an https URL the upstream can call`);
  const url = new URL(value);
  if (url.protocol !== 'https:' || url.hostname === '') throw fieldError(param, 'expected an https URL, e.g. https://example.com/seedance-callback');
  return value;
}
