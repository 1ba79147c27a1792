import { appendUploadFile, type UploadFile } from '../../core/kit/index.js';
import type { GiRequestFields } from './gi-request-schema.js';

/**
 * The upstream's `input_fidelity` for the client's, or undefined to leave it out. The upstream
 * knows only `high` and `low` (upstreams.md §2.7, default `low`), and only `high` changes what
 * it does, so `medium` goes out as `low`; `auto` leaves the choice to the upstream.
 */
export function toGiInputFidelity(fidelity: GiRequestFields['input_fidelity']): 'high' | 'low' | undefined {
  if (fidelity === 'high') return 'high';
  if (fidelity === 'low' || fidelity === 'medium') return 'low';
  return undefined;
}

/** The fields both endpoints take, in the order the upstream documents them; `response_format` is never among them. */
function sharedFields(fields: GiRequestFields, upstreamModel: string): Record<string, string | number> {
  const shared: Record<string, string | number | undefined> = {
    model: upstreamModel,
    prompt: fields.prompt,
    n: fields.n,
    size: fields.size,
    quality: fields.quality,
    background: fields.background,
    output_format: fields.output_format,
    output_compression: fields.output_compression,
    user: fields.user,
  };
  return Object.fromEntries(Object.entries(shared).filter((entry): entry is [string, string | number] => entry[1] !== undefined));
}

/**
 * The JSON body of `POST /images/generations` for text-to-image. `size` and `quality` always
 * go out, so the spec's defaults (`1024x1024`, `high`) hold whatever the upstream's are.
 * `input_fidelity` is an edit field and is left out; `moderation` is a generations field.
 */
export function toGiGenerationBody(fields: GiRequestFields, upstreamModel: string): Record<string, string | number> {
  const body = sharedFields(fields, upstreamModel);
  if (fields.moderation !== undefined) body.moderation = fields.moderation;
  return body;
}

/**
 * The multipart form of `POST /images/edits`: the text fields, then every reference image as
 * an `image[]` file (upstreams.md §2.7), then the mask. The edit endpoint has no `moderation`
 * field, so the upstream's default (`auto`) applies.
 */
export function toGiEditForm(fields: GiRequestFields, upstreamModel: string, references: readonly UploadFile[], mask?: UploadFile): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(sharedFields(fields, upstreamModel))) form.append(name, String(value));
  const fidelity = toGiInputFidelity(fields.input_fidelity);
  if (fidelity !== undefined) form.append('input_fidelity', fidelity);
  for (const image of references) appendUploadFile(form, 'image[]', image);
  if (mask !== undefined) appendUploadFile(form, 'mask', mask);
  return form;
}
