import { z } from 'zod';
import { invalidRequest, type VideoSubmitRequest } from '../../core/index.js';
import { OncePerRequest, ownEntry, parseClientFields, quoted, type UploadFile } from '../../core/kit/index.js';
import { readSrReferenceText, readSrReferenceUpload, type SrReferenceSource, type SrUpload } from './sr-reference-image.js';

// The clip lengths and the sizes (portrait first, the default) sr-2 makes (spec part 2,
// "`sr-2` fields"), and the upstream's longest prompt (upstreams.md §2.9: 1 to 32000 characters).
const srSeconds = [4, 8, 12] as const;
const srSizes = ['720x1280', '1280x720'] as const;
const mostPromptCharacters = 32_000;

const secondsRule = 'expected 4, 8 or 12 (a number, or the same as a string)';

/** The image given by reference: a URL, a data: URI or bare base64, or OpenAI's JSON shape `{image_url}`. */
const inputReference = z.union(
  [
    z.string().min(1, { error: 'must not be empty' }),
    z.strictObject({ image_url: z.string({ error: 'expected an http(s) URL, a data: URI or base64' }).min(1, { error: 'must not be empty' }) }),
  ],
  { error: 'expected an http(s) URL, a data: URI or base64 of a png, jpeg or webp image' },
);

// The fields of an sr-2 submission, strict: anything else is refused by name. `seconds` comes
// as a number or a string (a multipart form sends text), and leaves as a number.
const srRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z
    .string({ error: 'expected the prompt as a string' })
    .refine((prompt) => prompt.trim() !== '', { error: 'must not be empty; describe the video to make' })
    .refine((prompt) => prompt.length <= mostPromptCharacters, { error: `must be at most ${mostPromptCharacters} characters` }),
  seconds: z
    .union([z.number(), z.string()], { error: secondsRule })
    .refine((value) => srSeconds.some((allowed) => String(allowed) === String(value)), { error: secondsRule })
    .transform((value) => Number(value) as (typeof srSeconds)[number])
    .default(4),
  size: z.enum(srSizes, { error: 'expected 720x1280 (portrait) or 1280x720 (landscape)' }).default('720x1280'),
  input_reference: inputReference.optional(),
  // Core has already checked the client's value (one of the caller's finished tasks) and put
  // that task's upstream id in its place, which may have any form the upstream gives its ids.
  remix_from_video_id: z
    .string({ error: 'expected the id of one of your finished sr-2 videos (video_...)' })
    .min(1, { error: 'expected the id of one of your finished sr-2 videos (video_...)' })
    .optional(),
});

type SrFields = z.output<typeof srRequestSchema>;

/** An sr-2 submission checked against the family's rules, before any I/O. */
export interface SrRequestPlan {
  prompt: string;
  seconds: SrFields['seconds'];
  size: SrFields['size'];
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
  const hint = ownEntry(otherFamilyFields, key);
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
 * Checks a client's sr-2 submission (spec part 2, "`sr-2` fields") without any I/O: the fields
 * and their defaults, the reference image's form, and that a remix (which takes only a prompt
 * upstream) brings none. Throws a 400 that names the field.
 */
export function readSrRequest(request: VideoSubmitRequest): SrRequestPlan {
  const { uploads = [], ...rest } = request;
  const form = withFormReference(rest);
  if (form.prompt === undefined) {
    throw invalidRequest('prompt: required; describe the video to make (for a remix, the change to make)', { param: 'prompt' });
  }
  const fields = parseClientFields(srRequestSchema, form, { unknownField });
  const reference = referenceOf(uploads, fields.input_reference);
  if (fields.remix_from_video_id !== undefined && reference !== undefined) {
    throw invalidRequest('input_reference: a remix starts from the video it remixes; leave input_reference out, or leave remix_from_video_id out for a new video', {
      param: 'input_reference',
    });
  }
  return { prompt: fields.prompt, seconds: fields.seconds, size: fields.size, reference, remixFromVideoId: fields.remix_from_video_id };
}

/** A checked submission with a slot for its reference image, which the first channel fetches and a failover reuses. */
export interface PreparedSrRequest extends SrRequestPlan {
  referenceFile: OncePerRequest<UploadFile>;
}

/** The plugin's `prepare` of `video.submit`: runs once per submission, before any quota is touched; refuses as {@link readSrRequest}. */
export function prepareSrRequest(request: VideoSubmitRequest): PreparedSrRequest {
  return { ...readSrRequest(request), referenceFile: new OncePerRequest() };
}
