import { z } from 'zod';
import { invalidRequest, type ImageRequest } from '../../../core/index.js';
import { ownEntry, parseClientFields } from '../../../core/kit/index.js';

/** The output tiers of `imageConfig.imageSize` (upstreams.md §1.2). */
type GxImageSize = '1K' | '2K' | '4K';

// Spec part 2, vendor-G family: "size to aspect ratio".
const ratioOfPixelSize: Readonly<Record<string, string>> = {
  '256x256': '1:1',
  '512x512': '1:1',
  '1024x1024': '1:1',
  '1536x1024': '3:2',
  '1024x1536': '2:3',
  '1024x1792': '9:16',
  '1792x1024': '16:9',
};

/** The ratio strings the spec passes on as they are. */
const aspectRatios: readonly string[] = ['1:1', '3:2', '2:3', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

// Spec part 2, vendor-G family: "quality to tier". Keys lower case.
const tierOfQuality: Readonly<Record<string, GxImageSize>> = {
  hd: '2K',
  high: '2K',
  '2k': '2K',
  standard: '1K',
  medium: '1K',
  low: '1K',
  auto: '1K',
  '1k': '1K',
};

const tierOfImageSize: Readonly<Record<string, GxImageSize>> = { '1k': '1K', '2k': '2K', '4k': '4K' };

/** The tier a `quality` or `image_size` value stands for (any case, surrounding spaces ignored), or undefined. */
const tierOf = (tiers: Readonly<Record<string, GxImageSize>>, value: string): GxImageSize | undefined => ownEntry(tiers, value.trim().toLowerCase());

/** The `quality` values the spec lists, as a client reads them in an error. */
const qualityValues = 'hd, high, 2K, standard, medium, low, auto, 1K';

/**
 * At most this many reference images per request. The spec recommends up to 4; 14 is the
 * most the family's largest model takes (the rest refuse more upstream), and a bound keeps
 * one request from fanning out into unbounded media fetches.
 */
export const maxGxReferenceImages = 14;

const imageSource = z
  .string({ error: 'expected an https URL, a data: URI or base64 image data' })
  .refine((value) => value.trim() !== '', { error: 'must not be empty' });

const contentPart = z
  .strictObject({
    text: z.string({ error: 'expected text as a string' }).refine((value) => value.trim() !== '', { error: 'must not be empty' }).optional(),
    image: imageSource.optional(),
  })
  .refine((part) => (part.text === undefined) !== (part.image === undefined), { error: 'expected exactly one of {text} or {image}' });

const content = z.strictObject({
  role: z.literal('user', { error: 'expected "user": image models take one user turn' }).optional(),
  parts: z.array(contentPart, { error: 'expected an array of {text} or {image} parts' }).min(1, { error: 'expected at least one part' }),
});

/** The fields the vendor-G image models take on /v1/images/generations and /v1/images/edits (spec part 2). */
const gxImageRequestSchema = z.strictObject({
  model: z.string(),
  prompt: z.string({ error: 'expected the prompt as a string' }).optional(),
  // A single string is read as a list of one, so every entry is checked the same way.
  image: z
    .preprocess(
      (value) => (typeof value === 'string' ? [value] : value),
      z
        .array(imageSource, { error: 'expected an https URL, a data: URI or base64 image data, or an array of them' })
        .min(1, { error: 'expected at least one image; leave image out for text-to-image' })
        .max(maxGxReferenceImages, { error: `expected at most ${maxGxReferenceImages} images` }),
    )
    .optional(),
  contents: z
    .array(content, { error: 'expected an array of {role: "user", parts}' })
    .min(1, { error: 'expected at least one item; or leave contents out and send prompt' })
    .optional(),
  size: z.string({ error: 'expected a pixel size such as 1024x1024 or a ratio such as 16:9' }).optional(),
  quality: z
    .string({ error: `expected one of ${qualityValues}` })
    .refine((value) => tierOf(tierOfQuality, value) !== undefined, { error: `expected one of ${qualityValues} (image_size 4K asks for 4K)` })
    .optional(),
  image_size: z
    .string({ error: 'expected 1K, 2K or 4K' })
    .refine((value) => tierOf(tierOfImageSize, value) !== undefined, { error: 'expected 1K, 2K or 4K' })
    .optional(),
  mime_type: z.enum(['image/png', 'image/jpeg'], { error: 'expected image/png or image/jpeg' }).optional(),
  response_modalities: z
    .string({ error: 'expected image or image-text' })
    .refine((value) => ['image', 'image-text'].includes(value.trim().toLowerCase()), { error: 'expected image or image-text' })
    .optional(),
  n: z.number().int().min(1).optional(),
  response_format: z.enum(['b64_json', 'url']).optional(),
  temperature: z.number({ error: 'expected a number' }).min(0, { error: 'expected 0 or more' }).optional(),
  top_p: z.number({ error: 'expected a number from 0 to 1' }).min(0, { error: 'expected a number from 0 to 1' }).max(1, { error: 'expected a number from 0 to 1' }).optional(),
  sample_count: z.number({ error: 'expected a whole number' }).int({ error: 'expected a whole number' }).min(1, { error: 'expected at least 1' }).optional(),
  /** An OpenAI field clients send for abuse tracking; nothing upstream takes it. */
  user: z.string({ error: 'expected a string' }).optional(),
  stream: z.literal(false, { error: 'the image models do not stream; leave stream out' }).optional(),
});

type GxImageFields = z.output<typeof gxImageRequestSchema>;

const fieldList = Object.keys(gxImageRequestSchema.shape).join(', ');

/** One part of the prompt the upstream gets, in order. */
export type GxImagePromptPart = { kind: 'text'; text: string } | { kind: 'image'; source: string; param: string };

/** A validated vendor-G image request, in the terms of the upstream call. */
export interface GxImagePlan {
  /** Text and reference images in the order the user turn carries them. */
  parts: GxImagePromptPart[];
  /** `image-text` asked for the model's text next to the image. */
  withText: boolean;
  /** Undefined leaves the ratio to the model's default. */
  aspectRatio: string | undefined;
  imageSize: GxImageSize;
  temperature: number | undefined;
  topP: number | undefined;
}

function parseFields(request: ImageRequest): GxImageFields {
  return parseClientFields(gxImageRequestSchema, request, {
    where: 'the request is invalid',
    unknownField: (field) => `unknown field "${field}"; the gx image models take ${fieldList}`,
    // A single image string was checked as a list of one; its errors name the field itself.
    clientPath: (path) => (typeof request.image === 'string' && path[0] === 'image' ? ['image', ...path.slice(2)] : path),
  });
}

/** Refusals that come before the field-by-field check, each with what to do instead. */
function refuseUnsupportedShapes(request: ImageRequest): void {
  if (request.uploads !== undefined) {
    throw invalidRequest(
      'the gx image models take a JSON body, not multipart/form-data: send application/json with the reference images in "image" (https URLs, data URIs or base64) and without a mask',
    );
  }
  if (request.mask !== undefined) {
    throw invalidRequest('mask is not supported by the gx image models; send JSON without a mask and describe the edit in the prompt', { param: 'mask' });
  }
  if (request.extra_body !== undefined) {
    throw invalidRequest('extra_body is not accepted on the image endpoints; the gx image models take only the documented fields', { param: 'extra_body' });
  }
}

/** The prompt parts: contents' parts in order, then the flat `image` entries, then the flat `prompt`. */
function promptParts(request: ImageRequest, fields: GxImageFields): GxImagePromptPart[] {
  const parts: GxImagePromptPart[] = [];
  fields.contents?.forEach((item, itemIndex) =>
    item.parts.forEach((part, partIndex) => {
      if (part.image !== undefined) parts.push({ kind: 'image', source: part.image, param: `contents[${itemIndex}].parts[${partIndex}].image` });
      else if (part.text !== undefined) parts.push({ kind: 'text', text: part.text });
    }),
  );
  const single = typeof request.image === 'string';
  fields.image?.forEach((source, index) => parts.push({ kind: 'image', source, param: single ? 'image' : `image[${index}]` }));
  const prompt = fields.prompt?.trim() ?? '';
  if (prompt !== '') parts.push({ kind: 'text', text: fields.prompt! });
  if (fields.contents === undefined && prompt === '') {
    throw invalidRequest(fields.prompt === undefined ? 'prompt: required (or send contents)' : 'prompt: must not be empty', { param: 'prompt' });
  }
  return parts;
}

/** `imageConfig.imageSize`: `image_size` wins over `quality` (it names the tier itself, and only it reaches 4K); 1K by default. */
function imageSizeOf(fields: GxImageFields): GxImageSize {
  if (fields.image_size !== undefined) return tierOf(tierOfImageSize, fields.image_size) ?? '1K';
  return (fields.quality === undefined ? undefined : tierOf(tierOfQuality, fields.quality)) ?? '1K';
}

/**
 * Validates an image request for the vendor-G models (spec part 2) and plans the upstream
 * call. Every field is checked strictly; a bad one is a 400 that names it.
 * @throws GatewayError 400 `invalid_request` for multipart bodies, `mask`, `extra_body`,
 *   unknown fields, bad values, and a request with neither prompt nor contents.
 */
export function readGxImageRequest(request: ImageRequest): GxImagePlan {
  refuseUnsupportedShapes(request);
  const fields = parseFields(request);
  // `size`: a pixel size of the spec's table gives its ratio, a listed ratio string is used as given, and
  // anything else (or nothing) leaves the ratio to the model's default.
  const size = fields.size?.trim();
  const aspectRatio = size === undefined || aspectRatios.includes(size) ? size : ownEntry(ratioOfPixelSize, size.toLowerCase());
  return {
    parts: promptParts(request, fields),
    withText: fields.response_modalities?.trim().toLowerCase() === 'image-text',
    aspectRatio,
    imageSize: imageSizeOf(fields),
    temperature: fields.temperature,
    topP: fields.top_p,
  };
}
