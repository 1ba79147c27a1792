import { matchesModelPattern, type ImageRequest, type OperationCall, type OperationResult, type ProviderHost } from '../../core/index.js';
import { callQi } from './call-qi.js';
import { downloadQiImages } from './download-qi-images.js';
import { fromQiResponse } from './from-qi-response.js';
import type { QiOptions } from './qi-options.js';
import { readQiRequest, type QiModelKind } from './read-qi-request.js';
import { resolveQiImages } from './resolve-qi-images.js';
import { toQiRequest } from './to-qi-request.js';

/**
 * `images.generate` or `images.edit` for a Q-style model on a DashScope-format upstream:
 * the client's request read and checked, its images prepared, one sync call, and the
 * answer `{created, data: [{url} | {b64_json}], usage?}` billed by the images it holds.
 */
export function createQiImageOperation(host: ProviderHost, operation: QiModelKind['operation']) {
  return async (call: OperationCall<ImageRequest, QiOptions>): Promise<OperationResult> => {
    const edit = call.options.edit_models.some((pattern) => matchesModelPattern(pattern, call.model));
    const job = readQiRequest(call.request, { operation, model: call.model, edit });
    const images = await resolveQiImages(host, job.images, { fetchUrls: call.options.fetch_input_urls, signal: call.signal });
    const answer = await callQi(host, call, JSON.stringify(toQiRequest(job.prompt, images, job.parameters, call.upstreamModel)));
    const result = fromQiResponse(answer);
    const data = job.responseFormat === 'b64_json' ? await downloadQiImages(host, result.urls, call.signal, call.channel.baseUrl) : result.urls.map((url) => ({ url }));
    const body = { created: Math.floor(host.now() / 1000), data, ...(result.clientUsage === undefined ? {} : { usage: result.clientUsage }) };
    return { kind: 'json', body, usage: result.usage };
  };
}
