import { multipartBody, type TranscriptionRequest, type UpstreamRequestBody } from '../../core/index.js';

/**
 * The multipart form the upstream gets (upstreams.md §2.6): the file under its (possibly
 * completed) name and media type, `model` as the upstream model, `response_format` always,
 * and the optional fields the client sent, numbers as text and each timestamp granularity
 * as its own `timestamp_granularities[]` field, as OpenAI's own clients send them. The
 * platform's `Response` writes the body and its boundary.
 */
export async function toTranscriptionForm(request: TranscriptionRequest, upstreamModel: string): Promise<UpstreamRequestBody> {
  const form = new FormData();
  form.append('file', new Blob([request.file.data], { type: request.file.mimeType }), request.file.filename);
  form.append('model', upstreamModel);
  form.append('response_format', request.response_format);
  if (request.language !== undefined) form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  for (const granularity of request.timestamp_granularities ?? []) form.append('timestamp_granularities[]', granularity);
  return multipartBody(form);
}
