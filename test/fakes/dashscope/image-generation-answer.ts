import { randomUUID } from 'node:crypto';
import { blockedBodies } from './dashscope-error-body.js';
import type { DashScopeImageVariant } from './dashscope-behaviour.js';
import { jsonAnswer, type DashScopeRoute } from './dashscope-wire.js';
import { checkImageGenerationRequest } from './image-generation-request.js';
import { samplePng } from './sample-png.js';

/** The sync image path (upstreams.md §4.3). */
export const imageGenerationPath = '/api/v1/services/aigc/multimodal-generation/generation';

// Models that answer in the newer shape (upstreams.md §4.3: "qwen-image-2.x / wan2.6-image style").
const currentVariantModels = /^(qwen-image-[2-9]|wan[2-9]\.[6-9]-image)/;

/**
 * `POST /api/v1/services/aigc/multimodal-generation/generation`: checks the request like
 * DashScope, then answers one choice per image, each with one image URL pointing back at the
 * fake, in the shape of fixture dashscope-qwen-image-responses.json: `legacy` (role before
 * content, `task_metric`, usage width/image_count/height) or `current` (content items with
 * `type: "image"`, `finished`, usage with size and token counts). Every image is kept, with
 * the request's prompt and input images in order, for download and for tests.
 */
export const imageGenerationRoute: DashScopeRoute = ({ request: recorded, behaviour, origin, results }) => {
  if (behaviour.json !== undefined) return jsonAnswer(200, behaviour.json);
  const check = checkImageGenerationRequest(recorded);
  if ('error' in check) return jsonAnswer(check.status, check.error);
  const request = check.request;
  if (behaviour.blocked !== undefined) return jsonAnswer(400, blockedBodies[behaviour.blocked === true ? 'input' : behaviour.blocked]());

  const requestId = randomUUID();
  const made = Math.max(0, Math.min(behaviour.images ?? request.n, request.n));
  const urls = Array.from({ length: made }, (_, index) =>
    results.add(origin, {
      requestId,
      index,
      model: request.model,
      prompt: request.prompt,
      inputImages: [...request.images],
      size: request.size,
      contentType: behaviour.imageContentType ?? 'image/png',
      bytes: behaviour.imageBytes ?? samplePng,
    }),
  );
  const variant: DashScopeImageVariant = behaviour.variant ?? (currentVariantModels.test(request.model) ? 'current' : 'legacy');
  const [width, height] = request.size.split('*').map(Number) as [number, number];
  if (variant === 'legacy') {
    return jsonAnswer(200, {
      output: {
        choices: urls.map((image) => ({ finish_reason: 'stop', message: { role: 'assistant', content: [{ image }] } })),
        task_metric: { TOTAL: request.n, FAILED: request.n - made, SUCCEEDED: made },
      },
      usage: behaviour.usage ?? { width, image_count: made, height },
      request_id: requestId,
    });
  }
  return jsonAnswer(200, {
    output: {
      choices: urls.map((image) => ({ finish_reason: 'stop', message: { content: [{ image, type: 'image' }], role: 'assistant' } })),
      finished: true,
    },
    usage: behaviour.usage ?? { image_count: made, input_tokens: 0, output_tokens: 0, size: request.size, total_tokens: 0 },
    request_id: requestId,
  });
};
