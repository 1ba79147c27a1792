import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { fieldError, parseClientFields } from '../../core/kit/index.js';
import { checkDsxCallbackUrl, checkDsxMediaUrl, type DsxMediaKind } from './check-dsx-media-url.js';
import { decideDsxImageMode, type DsxImageInput } from './decide-dsx-image-mode.js';
import { dsxDefaults, type DsxModelProfile } from './dsx-model-profiles.js';
import { type DsxAssetReference, type DsxContentItem, type DsxSubmission, dsxUnknownField, sdxRequestSchema } from './dsx-request-schema.js';
import { firstDsxMarker } from './dsx-text-markers.js';

type MediaItem = Exclude<DsxContentItem, { type: 'text' }>;

const kindOf: Record<MediaItem['type'], DsxMediaKind> = { image_url: 'image', video_url: 'video', audio_url: 'audio' };

const urlOf = (item: MediaItem): string =>
  item.type === 'image_url' ? item.image_url.url : item.type === 'video_url' ? item.video_url.url : item.audio_url.url;

const itemTypeOf: Record<DsxMediaKind, MediaItem['type']> = { image: 'image_url', video: 'video_url', audio: 'audio_url' };

/** The asset id of an `asset://` URL. */
const assetIdOf = (url: string): string | undefined => /^asset:\/\/(.+)$/.exec(url)?.[1];

/**
 * An item whose `asset://` reference names an asset of another kind, retyped by the asset's
 * kind (spec part 2: each reference maps by asset_type to image_url, video_url or audio_url),
 * as a reference of that kind. A first or last frame must stay an image.
 */
function retypedByAsset(item: MediaItem, at: string, kinds: ReadonlyMap<string, DsxMediaKind> | undefined): MediaItem {
  const url = urlOf(item);
  const id = assetIdOf(url);
  const kind = id === undefined ? undefined : kinds?.get(id);
  if (kind === undefined || itemTypeOf[kind] === item.type) return item;
  if (item.type === 'image_url' && (item.role === 'first_frame' || item.role === 'last_frame')) {
    throw fieldError(`${at}.role`, `asset "${id}" is ${kind === 'audio' ? 'an audio clip' : 'a video'}; a ${item.role} must be an image asset`);
  }
  if (kind === 'image') return { type: 'image_url', image_url: { url }, role: 'reference_image' };
  if (kind === 'video') return { type: 'video_url', video_url: { url }, role: 'reference_video' };
  return { type: 'audio_url', audio_url: { url }, role: 'reference_audio' };
}

function withUrl(item: MediaItem, url: string): MediaItem {
  if (item.type === 'image_url') return { ...item, image_url: { url } };
  if (item.type === 'video_url') return { ...item, video_url: { url }, role: 'reference_video' };
  return { ...item, audio_url: { url }, role: 'reference_audio' };
}

/**
 * Checks a 2.0 submission (spec part 2, common flat fields and the Seedance-style 2.0 rows;
 * upstreams.md §3.4; the rules are in this folder's README). Options go upstream as Ark's
 * top-level fields, the resolution and duration always, so the video made is the video billed;
 * `--markers` in the prompt are refused, since they would change the video behind the billing's
 * back. `assetKinds` retypes each `asset://` reference by its asset's kind before the rules run.
 */
export function readSdxRequest(request: VideoSubmitRequest, profile: DsxModelProfile, assetKinds?: ReadonlyMap<string, DsxMediaKind>): DsxSubmission {
  const { uploads, ...fields } = request;
  if (uploads !== undefined) throw invalidRequest(`${profile.id} takes a JSON body; give images as URLs or base64, videos and audio as URLs or asset:// references`, { param: uploads[0]?.field ?? 'model' });
  const body = parseClientFields(sdxRequestSchema, fields, { unknownField: dsxUnknownField('Seedance-style 2.0 models') });
  const metadata = body.metadata ?? {};

  const refuse = (param: string, why: string): never => {
    throw fieldError(param, why);
  };
  const seconds = body.duration ?? dsxDefaults.seconds;
  if (seconds < profile.durations.min || seconds > profile.durations.max) refuse('duration', `${profile.id} renders whole seconds from ${profile.durations.min} to ${profile.durations.max}`);
  const resolution = body.resolution ?? dsxDefaults.resolution;
  if (!profile.resolutions.includes(resolution)) refuse('resolution', `"${resolution}" is not a resolution of ${profile.id}; use ${profile.resolutions.join(', ')}`);
  if (body.aspect_ratio !== undefined && !profile.ratios.includes(body.aspect_ratio)) {
    refuse('aspect_ratio', `"${body.aspect_ratio}" is not an aspect ratio of ${profile.id}; use one of ${profile.ratios.join(', ')}`);
  }

  let text: { value: string; param: string } | undefined = body.prompt === undefined ? undefined : { value: body.prompt, param: 'prompt' };
  const images: DsxImageInput[] = [];
  const imageItems: MediaItem[] = [];
  const media: Array<{ item: DsxContentItem; asset?: Omit<DsxAssetReference, 'index'> }> = [];
  const counts = { video_url: 0, audio_url: 0 };

  if (body.image !== undefined) {
    const imageAsset = assetIdOf(body.image);
    const imageKind = imageAsset === undefined ? undefined : assetKinds?.get(imageAsset);
    if (imageKind !== undefined && imageKind !== 'image') {
      refuse('image', `asset "${imageAsset}" is ${imageKind === 'audio' ? 'an audio clip' : 'a video'}; the first frame must be an image (reference it in metadata.content instead)`);
    }
    const checked = checkDsxMediaUrl(body.image, 'image', 'image', profile);
    const item: MediaItem = { type: 'image_url', image_url: { url: checked.url }, role: 'first_frame' };
    images.push({ role: 'first_frame', param: 'image', roleParam: 'image' });
    imageItems.push(item);
    media.push({ item, asset: checked.assetId === undefined ? undefined : { id: checked.assetId, param: 'image', type: 'image_url' } });
  }
  for (const [index, given] of (metadata.content ?? []).entries()) {
    const at = `metadata.content[${index}]`;
    if (given.type === 'text') {
      if (text !== undefined) refuse(`${at}.text`, text.param === 'prompt' ? 'the prompt is already given as prompt; give it once' : 'only one text item');
      text = { value: given.text, param: `${at}.text` };
      continue;
    }
    const param = `${at}.${given.type}.url`;
    const item = retypedByAsset(given, at, assetKinds);
    const checked = checkDsxMediaUrl(urlOf(item), kindOf[item.type], param, profile);
    const mapped = withUrl(item, checked.url);
    if (item.type === 'image_url') {
      images.push({ role: item.role, param, roleParam: `${at}.role` });
      imageItems.push(mapped);
    } else {
      counts[item.type] += 1;
      const limit = item.type === 'video_url' ? profile.maxReferenceVideos : profile.maxReferenceAudios;
      if (counts[item.type] > limit) refuse(param, `at most ${limit} ${item.type === 'video_url' ? 'reference videos' : 'reference audio clips'}`);
    }
    media.push({ item: mapped, asset: checked.assetId === undefined ? undefined : { id: checked.assetId, param, type: item.type } });
  }

  const plan = decideDsxImageMode(images, profile, counts.video_url + counts.audio_url);
  plan.roles.forEach((role, index) => Object.assign(imageItems[index]!, { role }));
  const marker = text === undefined ? undefined : firstDsxMarker(text.value);
  if (text !== undefined && marker !== undefined) {
    refuse(`${text.param} ${marker}`, `${profile.id} takes duration, resolution and aspect_ratio as fields, not as markers in the prompt`);
  }
  if (plan.mode === 'text' && (text?.value.trim() ?? '') === '') refuse(text?.param ?? 'prompt', 'text-to-video needs a prompt describing the video');

  const content: DsxContentItem[] = [...(text === undefined ? [] : [{ type: 'text' as const, text: text.value }]), ...media.map((entry) => entry.item)];
  const assets = media.flatMap((entry) => (entry.asset === undefined ? [] : [{ ...entry.asset, index: content.indexOf(entry.item) }]));

  const upstreamFields: DsxSubmission['fields'] = { resolution, duration: seconds };
  if (body.aspect_ratio !== undefined) upstreamFields.ratio = body.aspect_ratio;
  if (metadata.generate_audio !== undefined) upstreamFields.generate_audio = metadata.generate_audio;
  if (metadata.watermark !== undefined) upstreamFields.watermark = metadata.watermark;
  if (metadata.seed !== undefined) upstreamFields.seed = metadata.seed;
  if (metadata.return_last_frame !== undefined) upstreamFields.return_last_frame = metadata.return_last_frame;
  if (metadata.callback_url !== undefined) upstreamFields.callback_url = checkDsxCallbackUrl(metadata.callback_url);

  return { profile, content, fields: upstreamFields, seconds, resolution, ratio: body.aspect_ratio, assets };
}
