import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import type { ArkBehaviour, ArkImagesUsage } from './ark-behaviour.js';
import { arkErrorBody, arkSensitiveErrors } from './ark-error-body.js';
import { arkDoneEvent, arkEvent, arkJsonAnswer, arkStreamAnswer, rawPieces, type ArkExchange, type ArkRoute } from './ark-wire.js';
import { checkImagesRequest, isRefusal, type ImagesPlan } from './images-request-check.js';
import { sampleJpegBase64 } from './sample-image.js';

/** One image of an answer: made (`url` or `b64_json`, and `size`) or failed (`error`). */
type ImageOutcome = { url: string; size: string } | { b64_json: string; size: string } | { error: { code: string; message: string } };

/** Ark bills about one output token per 256 pixels: 1760x2368 is 16280 (fixture ark-seedream-image-responses.json). */
export function arkImageTokens(size: string): number {
  const [width, height] = size.split('x').map(Number);
  return Math.floor(((width ?? 0) * (height ?? 0)) / 256);
}

function outcomes(exchange: ArkExchange, plan: ImagesPlan): ImageOutcome[] {
  const { behaviour } = exchange;
  if (behaviour.empty === true) return [];
  const count = behaviour.images ?? plan.count;
  const failed = new Set(behaviour.failedImages ?? []);
  return Array.from({ length: count }, (_, index): ImageOutcome => {
    if (failed.has(index)) return { error: { ...arkSensitiveErrors.output_image } };
    if (plan.responseFormat === 'b64_json') return { b64_json: sampleJpegBase64, size: plan.size };
    return { url: exchange.images.add(exchange.origin, plan.model), size: plan.size };
  });
}

function usageOf(behaviour: ArkBehaviour, images: ImageOutcome[]): ArkImagesUsage {
  if (behaviour.usage !== undefined) return behaviour.usage;
  const made = images.flatMap((image) => ('size' in image ? [arkImageTokens(image.size)] : []));
  const tokens = made.reduce((sum, value) => sum + value, 0);
  return { generated_images: made.length, output_tokens: tokens, total_tokens: tokens };
}

function streamPieces(exchange: ArkExchange, plan: ImagesPlan, images: ImageOutcome[], created: number): PiecewiseAnswer {
  if (exchange.behaviour.rawSse !== undefined) return arkStreamAnswer(rawPieces(exchange.behaviour.rawSse), exchange.requestId);
  const common = (type: string) => ({ type, model: plan.model, created });
  const events = images.map((image, index) =>
    'error' in image
      ? arkEvent('image_generation.partial_failed', { ...common('image_generation.partial_failed'), image_index: index, error: image.error })
      : arkEvent('image_generation.partial_succeeded', { ...common('image_generation.partial_succeeded'), image_index: index, ...image }),
  );
  const completed = arkEvent('image_generation.completed', { ...common('image_generation.completed'), usage: usageOf(exchange.behaviour, images) });
  return arkStreamAnswer([...events, completed, arkDoneEvent], exchange.requestId);
}

/**
 * `POST /api/v3/images/generations` as upstreams.md §3.2 describes it. Without `stream`:
 * `{model, created, data[], usage}`, each item `{url, size}` (a URL back at the fake, which
 * serves a real JPEG there) or `{b64_json, size}`, a failed image of a group as `{error}`,
 * and `usage {generated_images, output_tokens, total_tokens}` counting the images made. With
 * `stream: true`: `image_generation.partial_succeeded` / `partial_failed` events, then
 * `image_generation.completed` with the usage, then `data: [DONE]`; a refused request still
 * gets a plain JSON error. A group (`sequential_image_generation: auto`) makes `max_images`
 * images (Ark's default 15), within references plus images at most 15.
 */
export function imagesGenerationsRoute(models: readonly string[] | undefined): ArkRoute {
  return (exchange) => {
    const { behaviour, requestId } = exchange;
    const plan = checkImagesRequest(exchange.request.json, requestId, models);
    if (isRefusal(plan)) return arkJsonAnswer(plan.status, plan.body, requestId);
    if (behaviour.blocked !== undefined) {
      const sensitive = arkSensitiveErrors[behaviour.blocked];
      return arkJsonAnswer(400, arkErrorBody(400, { code: sensitive.code, message: sensitive.message, param: behaviour.param, requestId }), requestId);
    }
    const created = Math.floor(Date.now() / 1000);
    if (behaviour.json !== undefined) return arkJsonAnswer(200, behaviour.json, requestId);
    const images = outcomes(exchange, plan);
    if (plan.stream) return streamPieces(exchange, plan, images, created);
    return arkJsonAnswer(200, { model: plan.model, created, data: images, usage: usageOf(behaviour, images) }, requestId);
  };
}
