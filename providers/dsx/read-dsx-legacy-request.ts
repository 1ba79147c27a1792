import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { fieldError, parseClientFields } from '../../core/kit/index.js';
import { checkDsxCallbackUrl, checkDsxMediaUrl } from './check-dsx-media-url.js';
import { decideDsxImageMode, type DsxImageInput } from './decide-dsx-image-mode.js';
import { dsxDefaults, type DsxModelProfile } from './dsx-model-profiles.js';
import { type DsxContentItem, dsxLegacyRequestSchema, type DsxSubmission, dsxUnknownField } from './dsx-request-schema.js';
import { dsxFramesPerSecond, readDsxMarkers } from './dsx-text-markers.js';

/**
 * Checks a 1.x submission (spec part 2, `dsx-` fields; the rules are in this folder's README).
 * The text goes upstream untouched, markers included (Ark's legacy form, upstreams.md §3.3);
 * what the client left out and billing depends on goes as Ark's top-level fields (`resolution`,
 * and `duration` without `--dur` or `--frames`), so the video made is the video billed.
 */
export function readDsxLegacyRequest(request: VideoSubmitRequest, profile: DsxModelProfile): DsxSubmission {
  const { uploads, ...fields } = request;
  if (uploads !== undefined) throw invalidRequest('Seedance-style models take a JSON body; give images as URLs or base64 in metadata.content', { param: uploads[0]?.field ?? 'model' });
  const body = parseClientFields(dsxLegacyRequestSchema, fields, { unknownField: dsxUnknownField('Seedance-style 1.x models') });

  let text: { value: string; param: string } | undefined = body.prompt === undefined ? undefined : { value: body.prompt, param: 'prompt' };
  const images: DsxImageInput[] = [];
  const content: DsxContentItem[] = [];
  (body.metadata?.content ?? []).forEach((item, index) => {
    const at = `metadata.content[${index}]`;
    if (item.type === 'text') {
      if (text !== undefined) {
        const why = text.param === 'prompt' ? 'the prompt is already given as prompt; give it once' : 'only one text item; put the whole prompt and its markers in it';
        throw fieldError(`${at}.text`, why);
      }
      text = { value: item.text, param: `${at}.text` };
      content.push(item);
      return;
    }
    const checked = checkDsxMediaUrl(item.image_url.url, 'image', `${at}.image_url.url`, profile);
    images.push({ role: item.role, param: `${at}.image_url.url`, roleParam: `${at}.role` });
    content.push({ ...item, image_url: { url: checked.url } });
  });

  const { prose, values } = text === undefined ? { prose: '', values: {} } : readDsxMarkers(text.value, text.param, profile);
  const plan = decideDsxImageMode(images, profile);
  if (plan.mode === 'text' && prose === '') throw fieldError(text?.param ?? 'prompt', 'text-to-video needs a prompt describing the video');
  if (body.prompt !== undefined) content.unshift({ type: 'text', text: body.prompt });

  const upstreamFields: DsxSubmission['fields'] = {};
  if (values.resolution === undefined) upstreamFields.resolution = dsxDefaults.resolution;
  if (values.duration === undefined && values.frames === undefined) upstreamFields.duration = dsxDefaults.seconds;
  if (profile.generateAudio !== undefined) upstreamFields.generate_audio = profile.generateAudio;
  const metadata = body.metadata ?? {};
  if (metadata.return_last_frame !== undefined) {
    if (!profile.returnLastFrame) throw fieldError('metadata.return_last_frame', `only the 1.5 pro models return the last frame, not ${profile.id}`);
    upstreamFields.return_last_frame = metadata.return_last_frame;
  }
  if (metadata.callback_url !== undefined) upstreamFields.callback_url = checkDsxCallbackUrl(metadata.callback_url);

  return {
    profile,
    content,
    fields: upstreamFields,
    // --frames takes priority over --dur (spec part 2): the video lasts frames / fps seconds.
    seconds: values.frames === undefined ? (values.duration ?? dsxDefaults.seconds) : values.frames / dsxFramesPerSecond,
    resolution: values.resolution ?? dsxDefaults.resolution,
    frames: values.frames,
    ratio: values.ratio,
    assets: [],
  };
}
