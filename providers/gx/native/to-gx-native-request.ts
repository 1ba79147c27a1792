import type { NativeGenerateRequest } from '../../../core/index.js';
import type { GxRequest } from '../call-gx.js';
import { parseGxThinkingSuffix } from '../gx-thinking.js';

/**
 * The native generate request to forward for a native client request: the body as the
 * client sent it, the thinking suffix of the model id taken off the upstream model (spec
 * part 1, "Native endpoints", thinking (3)) and, when the client set no
 * `generationConfig.thinkingConfig` of its own, turned into one (reference-gateway.md §6).
 * The client's body is not changed.
 */
export function toGxNativeRequest(request: NativeGenerateRequest, upstreamModel: string): GxRequest {
  const { model, thinkingConfig } = parseGxThinkingSuffix(upstreamModel);
  const generationConfig = request.generationConfig as Record<string, unknown> | undefined;
  if (thinkingConfig === undefined || generationConfig?.thinkingConfig !== undefined) return { model, body: request };
  return { model, body: { ...request, generationConfig: { ...generationConfig, thinkingConfig } } };
}
