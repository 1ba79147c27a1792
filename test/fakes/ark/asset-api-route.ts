import { arkHeaders, arkJsonAnswer, type ArkRoute } from './ark-wire.js';
import type { ArkAssetLibrary } from './asset-library.js';
import { checkVolcSignature, type VolcKeyPair } from './volc-signature-check.js';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';

/** The asset API's version (upstreams.md §3.5). */
export const volcApiVersion = '2024-01-01';

const statusCodes: Record<number, string> = { 400: 'InvalidParameter', 401: 'InvalidAuthorization', 403: 'AccessDenied', 404: 'ResourceNotFound', 429: 'Throttling', 500: 'InternalError', 503: 'ServiceUnavailable' };

/** An OpenAPI envelope answer: `ResponseMetadata` (with `Error` on failure) and `Result`. */
function envelopeAnswer(status: number, action: string, requestId: string, region: string, outcome: { result?: unknown; error?: { Code: string; Message: string } }): PiecewiseAnswer {
  const metadata = { RequestId: requestId, Action: action, Version: volcApiVersion, Service: 'ark', Region: region, ...(outcome.error === undefined ? {} : { Error: outcome.error }) };
  const text = JSON.stringify(outcome.error === undefined ? { ResponseMetadata: metadata, Result: outcome.result ?? {} } : { ResponseMetadata: metadata });
  return { status, headers: { ...arkHeaders('application/json; charset=utf-8', requestId), 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
}

/**
 * `POST /?Action=<action>&Version=2024-01-01`: the asset API of upstreams.md §3.5, on the
 * fake's own origin (the real one is another host). The Volcengine V4 signature is checked
 * with the fake's key pair; a wrong one is a 401 envelope (`SignatureDoesNotMatch`,
 * `InvalidAccessKey`). Behaviours: `error` answers that status with an envelope error (or
 * with `body` as given), `volcError` answers 200 with that `ResponseMetadata.Error`.
 */
export function assetApiRoute(library: ArkAssetLibrary, keys: VolcKeyPair): ArkRoute {
  return (exchange) => {
    const { request, behaviour, requestId } = exchange;
    const action = request.query.Action ?? '';
    const region = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(String(request.headers.authorization ?? ''))?.[1] ?? 'cn-beijing';
    const signature = checkVolcSignature(request, keys);
    if (signature !== undefined) return envelopeAnswer(401, action, requestId, region, { error: { Code: signature, Message: 'The request signature we calculated does not match the signature you provided.' } });
    if (request.query.Version !== volcApiVersion) return envelopeAnswer(400, action, requestId, region, { error: { Code: 'InvalidVersion', Message: `The version ${request.query.Version ?? ''} is not valid.` } });
    const status = behaviour.status ?? behaviour.error;
    if (status !== undefined) {
      if (behaviour.body !== undefined) return arkJsonAnswer(status, behaviour.body, requestId);
      return envelopeAnswer(status, action, requestId, region, { error: { Code: statusCodes[status] ?? 'InternalError', Message: behaviour.message ?? `The service answered ${status}.` } });
    }
    if (behaviour.volcError !== undefined) return envelopeAnswer(200, action, requestId, region, { error: behaviour.volcError });
    const outcome = library.act(action, request.json, behaviour, exchange.origin);
    if ('error' in outcome) return envelopeAnswer(outcome.status, action, requestId, region, { error: outcome.error });
    return envelopeAnswer(200, action, requestId, region, { result: outcome.result });
  };
}
