import type { TranscriptionRequest } from '../../core/index.js';

/** A multipart body ready to send. */
export interface TranscriptionForm {
  contentType: string;
  body: Uint8Array;
}

/**
 * The multipart form the upstream gets (upstreams.md §2.6): the file under its (possibly
 * completed) name and media type, `model` as the upstream model, `response_format` always,
 * and the optional fields the client sent, numbers as text and each timestamp granularity
 * as its own `timestamp_granularities[]` field, as OpenAI's own clients send them. The
 * platform's `Response` writes the body and its boundary.
 */
export async function toTranscriptionForm(request: TranscriptionRequest, upstreamModel: string): Promise<TranscriptionForm> {
  const form = new FormData();
  form.append('file', new Blob([request.file.data], { type: request.file.mimeType }), request.file.filename);
  form.append('model', upstreamModel);
  form.append('response_format', request.response_format);
  if (request.language !== undefined) form.append('language', request.language);
  if (request.prompt !== undefined) form.append('prompt', request.prompt);
  if (request.temperature !== undefined) form.append('temperature', String(request.temperature));
  for (const granularity of request.timestamp_granularities ?? []) form.append('timestamp_granularities[]', granularity);
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type') ?? 'multipart/form-data', body: new Uint8Array(await encoded.arrayBuffer()) };
}
