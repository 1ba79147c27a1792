import { z } from 'zod';
import {
  assetsUnavailable,
  GatewayError,
  malformedUpstreamAnswer,
  notFound,
  upstreamAuthFailed,
  type OperationCall,
  type ProviderHost,
} from '../../core/index.js';
import {
  errorForUpstreamStatus,
  isSuccessStatus,
  readBodyExcerpt,
  readUpstreamJsonAs,
  redactSecrets,
  sendUpstream,
  upstreamRefusal,
} from '../../core/kit/index.js';
import type { DsxOptions } from './dsx-options.js';
import { signVolcRequest } from './sign-volc-request.js';

// The OpenAPI envelope, `{ResponseMetadata: {RequestId, Action, ..., Error?}, Result}`: lenient, as its fields
// come from client implementations, not an official SDK (upstreams.md §3.5 [M]).
const text = z.string().nullish();
const volcEnvelopeSchema = z.looseObject({
  ResponseMetadata: z.looseObject({ RequestId: text, Error: z.looseObject({ Code: text, Message: text }).nullish() }).nullish(),
  Result: z.unknown().optional(),
});

function failure(status: number, code: string, message: string): GatewayError {
  const detail = code === '' ? message : `${message} (${code})`;
  if (status === 404 || /NotFound/i.test(code)) return notFound(`the upstream asset library has no such object: ${redactSecrets(detail)}`);
  if (status === 401 || status === 403 || /Signature|AccessKey|AccessDenied|Unauthorized|Forbidden|SubscriptionRequired/i.test(code)) {
    return upstreamAuthFailed(`the asset API refused this channel's credentials or plan: ${redactSecrets(detail)}`);
  }
  if (status === 429 || /Throttl|RateLimit|TooMany|QuotaExceeded/i.test(code)) return errorForUpstreamStatus(429, detail);
  if (status >= 500 || /Internal|ServiceUnavailable/i.test(code)) return errorForUpstreamStatus(status >= 500 ? status : 500, detail);
  return upstreamRefusal(code === '' ? undefined : code, message);
}

/**
 * Calls one action of the asset API: `POST {assets.base_url}/?Action=<action>&Version=
 * 2024-01-01` with a JSON body (the channel's `ProjectName` added), signed with the channel's
 * access key pair (upstreams.md §3.5). Errors come as a non-2xx status or as HTTP 200 with
 * `ResponseMetadata.Error`: a missing object is a 404 (not retried), the channel's own
 * trouble (signature, access, plan, throttling, 5xx) is retryable, anything else a 502 with
 * the upstream's code. Resolves to `Result`.
 */
export async function callDsxAssetAction(
  host: ProviderHost,
  call: Pick<OperationCall<unknown, DsxOptions>, 'options' | 'signal' | 'channel'>,
  action: string,
  fields: Record<string, unknown>,
): Promise<unknown> {
  const assets = call.options.assets;
  if (assets === undefined) throw assetsUnavailable(call.channel.name, 'options.assets');
  const url = `${assets.base_url}/?Action=${encodeURIComponent(action)}&Version=2024-01-01`;
  const body = JSON.stringify({ ...fields, ProjectName: assets.project_name });
  const headers = signVolcRequest(
    { method: 'POST', url, body, contentType: 'application/json' },
    { accessKeyId: assets.access_key_id, secretAccessKey: assets.secret_access_key, region: assets.region, service: 'ark' },
    new Date(host.now()),
  );
  const response = await sendUpstream(host, call, { url, headers: { ...headers, accept: 'application/json' }, body });
  const envelope = readUpstreamJsonAs(await readBodyExcerpt(response), volcEnvelopeSchema);
  const error = envelope?.ResponseMetadata?.Error;
  const ok = isSuccessStatus(response);
  if (!ok || (error?.Code ?? '') !== '') {
    throw failure(ok ? 400 : response.statusCode, error?.Code ?? '', error?.Message ?? `the asset API answered HTTP ${response.statusCode} to ${action}`);
  }
  if (envelope === undefined) throw malformedUpstreamAnswer(`the asset API answered ${action} with something that is not its envelope`);
  return envelope.Result ?? {};
}
