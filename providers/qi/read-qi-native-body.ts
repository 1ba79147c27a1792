import { fieldError, parseClientFields } from '../../core/index.js';
import { qiFlatOnlyFields, qiNativeBodySchema, qiNativeKnownFields, qiUnknownField } from './qi-client-schemas.js';
import type { QiImageJob } from './qi-image-job.js';

const contentPath = ['input', 'messages', 0, 'content'] as const;

/**
 * Reads the native body `{model, input: {messages: [{role: "user", content: [...]}]},
 * parameters, response_format}` (spec part 2, Q-style family): one user message, exactly
 * one `{text}` item and any `{image}` items, whose order is kept.
 */
export function readQiNativeBody(request: Record<string, unknown>): QiImageJob {
  for (const field of qiFlatOnlyFields) {
    if (request[field] !== undefined) {
      throw fieldError([field], 'send either input and parameters, or the flat fields (prompt, image, n, size...), not both');
    }
  }
  const body = parseClientFields(qiNativeBodySchema, request, { unknownField: qiUnknownField(qiNativeKnownFields) });
  const content = body.input.messages[0]!.content;
  const textIndexes = content.flatMap((item, index) => (item.text === undefined ? [] : [index]));
  if (textIndexes.length === 0) throw fieldError(contentPath, 'expected the prompt as a {"text": ...} item');
  if (textIndexes.length > 1) throw fieldError([...contentPath, textIndexes[1]!, 'text'], 'expected one text item; put the whole prompt in one');
  const prompt = content[textIndexes[0]!]!.text!;
  if (prompt.trim() === '') throw fieldError([...contentPath, textIndexes[0]!, 'text'], 'must not be empty');
  return {
    prompt,
    images: content.flatMap((item, index) => (item.image === undefined ? [] : [{ value: item.image, path: [...contentPath, index, 'image'] }])),
    imagesPath: contentPath,
    parameters: body.parameters ?? {},
    parametersPath: ['parameters'],
    responseFormat: body.response_format ?? 'url',
  };
}
