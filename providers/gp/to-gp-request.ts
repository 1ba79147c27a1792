import type { ChatCompletionRequest } from '../../core/index.js';

/**
 * The client's request as the upstream gets it: every field, unknown ones included, with
 * `model` replaced by the upstream model. A stream always asks for usage, because billing
 * needs it whether or not the client wants to see it.
 */
export function toGpRequest(request: ChatCompletionRequest, upstreamModel: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...request, model: upstreamModel };
  if (stream) body.stream_options = { ...(request.stream_options ?? {}), include_usage: true };
  return body;
}
