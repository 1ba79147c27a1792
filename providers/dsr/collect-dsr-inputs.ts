import { invalidRequest, type ImageUpload } from '../../core/index.js';
import type { DsrRequest } from './dsr-request-schema.js';

/** A reference image as the client gave it. */
export interface DsrReference {
  /** An http(s) URL or a data URI. */
  source: string;
  /** The request field it came in, for messages: `contents[0].parts[1].image`, `image[2]`, `image[]`. */
  field: string;
  /** How a message names it: the field, plus the file name of an upload. */
  label: string;
}

/** The prompt and reference images of a request, wherever the client put them. */
export interface DsrInputs {
  /** Undefined when the client sent no text at all. */
  prompt: string | undefined;
  /** In the order the client gave them, which is the order the upstream numbers them. */
  references: DsrReference[];
  /** The field to name when the prompt is missing. */
  promptField: 'prompt' | 'contents';
}

/**
 * Gathers the prompt and the reference images from the two forms a client may use:
 * `prompt` with `image` (Ark's own fields, plus uploaded files in a multipart body), or
 * `contents` (spec part 2), whose text parts are joined with newlines in order and whose
 * image parts become the references in order. Mixing the two forms is a 400.
 */
export function collectDsrInputs(request: DsrRequest, uploads: readonly ImageUpload[]): DsrInputs {
  const uploaded = uploads.map((upload): DsrReference => ({
    source: `data:${upload.mimeType};base64,${upload.data.toString('base64')}`,
    field: upload.field,
    label: `${upload.field} ("${upload.filename}")`,
  }));
  if (request.contents === undefined) {
    const images = request.image ?? [];
    const given = images.map((source, index): DsrReference => {
      const field = images.length === 1 ? 'image' : `image[${index}]`;
      return { source, field, label: field };
    });
    return { prompt: request.prompt, references: [...given, ...uploaded], promptField: 'prompt' };
  }
  if (request.prompt !== undefined || request.image !== undefined || uploaded.length > 0) {
    throw invalidRequest('contents: send either contents, or prompt with image, not both', { param: 'contents' });
  }
  const texts: string[] = [];
  const references: DsrReference[] = [];
  request.contents.forEach((content, contentIndex) =>
    content.parts.forEach((part, partIndex) => {
      if (part.text !== undefined) texts.push(part.text);
      if (part.image !== undefined) {
        const field = `contents[${contentIndex}].parts[${partIndex}].image`;
        references.push({ source: part.image, field, label: field });
      }
    }),
  );
  return { prompt: texts.length === 0 ? undefined : texts.join('\n'), references, promptField: 'contents' };
}
