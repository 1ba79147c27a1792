import {
  readUpstreamJsonBody,
  type ImageRequest,
  type OperationCall,
  type OperationName,
  type OperationResult,
  type PathPrefixOptions,
  type ProviderHost,
} from '../../core/index.js';
import { callDsr } from './call-dsr.js';
import { checkDsrModelRules } from './check-dsr-model-rules.js';
import { collectDsrInputs } from './collect-dsr-inputs.js';
import { dsrModelProfile } from './dsr-model-profiles.js';
import { fetchDsrReferences } from './fetch-dsr-references.js';
import { fromDsrResponse } from './from-dsr-response.js';
import { normalizeDsrForm } from './normalize-dsr-form.js';
import { readDsrRequest } from './read-dsr-request.js';
import { toDsrRequest } from './to-dsr-request.js';

/**
 * `images.generate` and `images.edit` for a Seedream-style model: the request is checked
 * against the family's schema and the model's rules, reference images are fetched through
 * the SSRF guard, one non-stream call goes to the upstream, and its answer comes back with
 * the images actually delivered as the billed usage.
 */
export function createDsrImagesOperation(host: ProviderHost, operation: Extract<OperationName, 'images.generate' | 'images.edit'>) {
  return async (call: OperationCall<ImageRequest, PathPrefixOptions>): Promise<OperationResult> => {
    const { fields, uploads } = normalizeDsrForm(call.request);
    const request = readDsrRequest(fields);
    const profile = dsrModelProfile(call.model, call.upstreamModel);
    const inputs = collectDsrInputs(request, uploads);
    const prompt = checkDsrModelRules(request, inputs, profile, call.model, operation);
    const images = await fetchDsrReferences(host, inputs.references, call.signal);
    const body = toDsrRequest(request, { upstreamModel: call.upstreamModel, prompt, images, profile });

    const response = await callDsr(host, call, JSON.stringify(body));
    const { json } = await readUpstreamJsonBody(response.body, 'an images response');
    const answer = fromDsrResponse(json, { model: call.model, now: Math.floor(host.now() / 1000) });
    return { kind: 'json', body: answer.body, usage: answer.usage };
  };
}
