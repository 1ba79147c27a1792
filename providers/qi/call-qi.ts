import { bearerAuthorization, callUpstream, prefixedUpstreamUrl, readBodyExcerpt, readUpstreamAnswer, retryAfterHeader, type OperationCall, type ProviderHost } from '../../core/index.js';
import { qiResponseExpected, qiStatusError } from './qi-error.js';
import type { QiOptions } from './qi-options.js';

/** The sync image path under the channel's prefix (upstreams.md §4.3). */
export const qiGenerationPath = '/services/aigc/multimodal-generation/generation';

/**
 * POSTs a JSON body to `{base_url}{path_prefix}/services/aigc/multimodal-generation/generation`
 * with the channel's key as a Bearer token (upstreams.md §4.1) and returns the parsed answer.
 * No `X-DashScope-Async` header: this path is synchronous and refuses it (§4.3). A non-2xx
 * answer becomes {@link qiStatusError}.
 */
export async function callQi(host: ProviderHost, call: OperationCall<unknown, QiOptions>, body: string): Promise<unknown> {
  const response = await callUpstream(host, call, { url: prefixedUpstreamUrl(call, qiGenerationPath), headers: bearerAuthorization(call), body }, async (refusal) =>
    qiStatusError(refusal.statusCode, await readBodyExcerpt(refusal), retryAfterHeader(refusal)),
  );
  return readUpstreamAnswer(response.body, qiResponseExpected);
}
