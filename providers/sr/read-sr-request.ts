import { invalidRequest, parseClientFields, quoted, type VideoSubmitRequest } from '../../core/index.js';
import { readSrReferenceText, readSrReferenceUpload, type SrReferenceSource, type SrUpload } from './read-sr-reference.js';
import { srRequestSchema, type SrSeconds, type SrSize } from './sr-request-schema.js';

/** An sr-2 submission checked against the family's rules, before any I/O. */
export interface SrRequestPlan {
  prompt: string;
  seconds: SrSeconds;
  size: SrSize;
  /** The image the video starts from (image-to-video); absent for text-to-video and remixes. */
  reference?: SrReferenceSource;
  /** The upstream id of the video to remix (see providers/sr/README.md: core resolves the client's task id to it). */
  remixFromVideoId?: string;
}

// Fields of other video families that clients of the unified route send out of habit: the
// refusal says which sr-2 field does the job.
const otherFamilyFields: Record<string, string> = {
  duration: 'send seconds (4, 8 or 12) instead',
  image: 'send the reference image as input_reference instead',
  resolution: 'sr-2 picks it by size; send size (720x1280 or 1280x720) instead',
  aspect_ratio: 'send size instead: 720x1280 is portrait, 1280x720 landscape',
  metadata: 'sr-2 takes flat fields: prompt, seconds, size, input_reference, remix_from_video_id',
};

// The official SDK writes the JSON shape `input_reference: {image_url}` into a form as the
// field `input_reference[image_url]` (openai-node's multipart encoding of nested objects).
const formReferenceField = 'input_reference[image_url]';
const formFileIdField = 'input_reference[file_id]';

function unknownField(key: string): string {
  const hint = otherFamilyFields[key];
  if (hint !== undefined) return `${key}: not an sr-2 field; ${hint}`;
  return `unknown field ${quoted(key)}: sr-2 takes model, prompt, seconds, size, input_reference and remix_from_video_id`;
}

/** The form's `input_reference[image_url]` as the JSON shape; a file id is refused, since it names a file in the upstream's own account. */
function withFormReference(fields: Record<string, unknown>): Record<string, unknown> {
  const fileId = fields[formFileIdField] ?? (fields.input_reference as { file_id?: unknown } | undefined)?.file_id;
  if (fileId !== undefined) throw invalidRequest('input_reference: file ids are not accepted; send the image itself (a URL, a data: URI, base64 or a file)', { param: 'input_reference' });
  if (!(formReferenceField in fields)) return fields;
  const { [formReferenceField]: imageUrl, ...rest } = fields;
  if (rest.input_reference !== undefined) throw invalidRequest('input_reference: send the reference image once', { param: 'input_reference' });
  return { ...rest, input_reference: { image_url: imageUrl } };
}

/** The validated fields, or a 400 naming the first wrong field and what to send instead. */
function parseFields(fields: Record<string, unknown>) {
  if (fields.prompt === undefined) throw invalidRequest('prompt: required; describe the video to make (for a remix, the change to make)', { param: 'prompt' });
  return parseClientFields(srRequestSchema, fields, { unknownField });
}

/** The one reference image: an `input_reference` file, or the text (or `{image_url}`) field. */
function referenceOf(uploads: readonly SrUpload[], text: string | { image_url: string } | undefined): SrReferenceSource | undefined {
  for (const upload of uploads) {
    if (upload.field !== 'input_reference') {
      throw invalidRequest(`unknown file field ${quoted(upload.field)}: sr-2 takes one file, the reference image, as input_reference`, { param: upload.field });
    }
  }
  if (uploads.length + (text === undefined ? 0 : 1) > 1) throw invalidRequest('input_reference: send one reference image', { param: 'input_reference' });
  if (uploads[0] !== undefined) return readSrReferenceUpload(uploads[0]);
  if (text === undefined) return undefined;
  return readSrReferenceText(typeof text === 'string' ? text : text.image_url);
}

/**
 * Checks a client's sr-2 submission (spec part 2, "`sr-2` fields") without any I/O: the
 * fields and their defaults (4 seconds, 720x1280), the reference image's form (an uploaded
 * file's bytes, inline data's first bytes, a URL's scheme), and that a remix brings no
 * reference image (the upstream's remix takes only a prompt). Throws a 400 that names the
 * field.
 */
export function readSrRequest(request: VideoSubmitRequest): SrRequestPlan {
  const { uploads = [], ...rest } = request;
  const fields = parseFields(withFormReference(rest));
  const reference = referenceOf(uploads, fields.input_reference);
  if (fields.remix_from_video_id !== undefined && reference !== undefined) {
    throw invalidRequest('input_reference: a remix starts from the video it remixes; leave input_reference out, or leave remix_from_video_id out for a new video', {
      param: 'input_reference',
    });
  }
  return { prompt: fields.prompt, seconds: fields.seconds, size: fields.size, reference, remixFromVideoId: fields.remix_from_video_id };
}
