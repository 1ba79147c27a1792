import { appendUploadFile, type UploadFile } from '../../core/index.js';
import type { SrRequestPlan } from './read-sr-request.js';

/** The text fields of a new video (upstreams.md §2.9): every one sent, defaults included, `seconds` as the string the upstream's enum is. */
export interface SrCreateFields {
  model: string;
  prompt: string;
  seconds: string;
  size: string;
}

/** The fields of `POST /videos` for a plan, with the channel's upstream model. */
export function toSrCreateFields(plan: SrRequestPlan, upstreamModel: string): SrCreateFields {
  return { model: upstreamModel, prompt: plan.prompt, seconds: String(plan.seconds), size: plan.size };
}

/** The multipart form of an image-to-video submission: the text fields, then the image as the file `input_reference`. */
export function toSrCreateForm(fields: SrCreateFields, reference: UploadFile): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  appendUploadFile(form, 'input_reference', reference);
  return form;
}

/** The body of `POST /videos/{id}/remix`: only the prompt; the new video keeps the original's model, length and size (upstreams.md §2.9). */
export function toSrRemixBody(plan: SrRequestPlan): { prompt: string } {
  return { prompt: plan.prompt };
}
