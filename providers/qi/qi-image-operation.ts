import { z } from 'zod';
import { GatewayError, imageConversionFailed, type ImageRequest, type OperationCall, type ProviderHost, type JsonResult } from '../../core/index.js';
import { matchesModelPattern, pathPrefixOption, readUpstreamAnswer } from '../../core/kit/index.js';
import { callDashScope } from '../shared/dashscope/dashscope-api.js';
import { fromQiResponse, qiResponseExpected, qiStatusError } from './from-qi-response.js';
import type { QiParameters } from './qi-client-schemas.js';
import { qiImageMimeTypes, resolveQiImages } from './qi-image-reference.js';
import { readQiRequest, type QiModelKind } from './read-qi-request.js';

/** A qi channel's `options`. */
export const qiOptionsSchema = z.strictObject({
  /**
   * The path between the channel's `base_url` (the DashScope origin, e.g.
   * `https://dashscope-intl.aliyuncs.com`) and `/services/aigc/...` (upstreams.md §4.1).
   */
  path_prefix: pathPrefixOption('/api/v1'),
  /**
   * Client model names (exact, or with `*`) that edit images: they take 1 to 3 input images
   * and make 1 to 6 images. Every other model of the channel is text-to-image.
   */
  edit_models: z.array(z.string().min(1, { error: 'expected a model name or pattern' }), { error: 'expected a list of model names or patterns' }).default(['*edit*']),
  /**
   * Download input image URLs through the gateway's media guard and send them as data: URIs,
   * for an upstream that cannot reach the client's URLs. Off by default: DashScope fetches
   * URLs itself.
   */
  fetch_input_urls: z.boolean({ error: 'expected true or false' }).default(false),
});

export type QiOptions = z.output<typeof qiOptionsSchema>;

// The order of upstreams.md §4.3's sample, so a body reads like DashScope's own examples.
const parameterOrder = ['negative_prompt', 'prompt_extend', 'watermark', 'size', 'n', 'seed'] as const;

/**
 * The upstream body of a multimodal-generation call (upstreams.md §4.3): one user message
 * holding the input images in the order given, then the prompt as one text item; the
 * parameters the client set, none added. `parameters` is always present, even empty, since
 * DashScope refuses a body without it on some paths (`BadRequest.EmptyParameters`).
 */
export function toQiRequest(prompt: string, images: readonly string[], parameters: QiParameters, upstreamModel: string) {
  const ordered: Record<string, unknown> = {};
  for (const name of parameterOrder) if (parameters[name] !== undefined) ordered[name] = parameters[name];
  return {
    model: upstreamModel,
    input: { messages: [{ role: 'user', content: [...images.map((image) => ({ image })), { text: prompt }] }] },
    parameters: ordered as QiParameters,
  };
}

// The guard's own messages speak to a client about its URL; here the URL is the upstream's.
const downloadFailures: Record<string, string> = {
  media_url_not_allowed: "the image's URL points to a private or otherwise non-public address on a host other than the channel's base_url, which security.media does not allow (add the host to security.media.allow_hosts to trust it)",
  media_too_large: 'the image is larger than security.media.max_bytes',
  media_fetch_timeout: 'the download took longer than security.media.timeout_ms',
};

/**
 * The images as `{b64_json}` entries, in order, for `response_format: b64_json` (spec part 2:
 * "b64 is converted from the URL"). Each URL is fetched through `host.media.fetch`, the SSRF
 * guard, accepting PNG, JPEG or WebP only; a URL on the channel's own host passes whatever
 * its address (an upstream run on a private network serves its results from there). A failed
 * download is a 502 `image_conversion_failed` (the images dialect answers 503 `bad_response`),
 * not retryable: another channel would generate again, at the operator's cost, and most
 * likely meet the same guard.
 */
async function downloadQiImages(host: ProviderHost, urls: readonly string[], signal: AbortSignal, channelBaseUrl: string) {
  return Promise.all(
    urls.map(async (url) => {
      try {
        const media = await host.media.fetch(url, { allowedMimeTypes: qiImageMimeTypes, signal, channelBaseUrl });
        return { b64_json: media.data.toString('base64') };
      } catch (error) {
        if (signal.aborted) throw error;
        const reason = GatewayError.is(error) ? (downloadFailures[error.code] ?? error.message) : String(error);
        throw imageConversionFailed(reason, error);
      }
    }),
  );
}

/**
 * `images.generate` or `images.edit` for a Q-style model on a DashScope-format upstream:
 * the client's request read and checked, its images prepared, one sync call, and the
 * answer `{created, data: [{url} | {b64_json}], usage?}` billed by the images it holds. The
 * call has no `X-DashScope-Async` header: this path is synchronous and refuses it (upstreams.md §4.3).
 */
export function createQiImageOperation(host: ProviderHost, operation: QiModelKind['operation']) {
  return async (call: OperationCall<ImageRequest, QiOptions>): Promise<JsonResult> => {
    const edit = call.options.edit_models.some((pattern) => matchesModelPattern(pattern, call.model));
    const job = readQiRequest(call.request, { operation, model: call.model, edit });
    const images = await resolveQiImages(host, job.images, { fetchUrls: call.options.fetch_input_urls, signal: call.signal });
    const body = JSON.stringify(toQiRequest(job.prompt, images, job.parameters, call.upstreamModel));
    const response = await callDashScope(host, call, '/services/aigc/multimodal-generation/generation', { body }, qiStatusError);
    const result = fromQiResponse(await readUpstreamAnswer(response.body, qiResponseExpected));
    const data = job.responseFormat === 'b64_json' ? await downloadQiImages(host, result.urls, call.signal, call.channel.baseUrl) : result.urls.map((url) => ({ url }));
    const answer = { created: Math.floor(host.now() / 1000), data, ...(result.clientUsage === undefined ? {} : { usage: result.clientUsage }) };
    return { kind: 'json', body: answer, usage: result.usage };
  };
}
