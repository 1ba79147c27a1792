import {
  bearerAuthorization,
  callUpstream,
  prefixedUpstreamUrl,
  type OperationCall,
  type PathPrefixOptions,
  type ProviderHost,
  type UpstreamResponse,
} from '../../core/index.js';
import { dsrStatusError } from './dsr-error.js';

/**
 * POSTs the body to `{base_url}{path_prefix}/images/generations` with the channel's key as
 * a Bearer token (upstreams.md §3.1). A non-2xx answer becomes {@link dsrStatusError}.
 */
export function callDsr(host: ProviderHost, call: OperationCall<unknown, PathPrefixOptions>, body: string): Promise<UpstreamResponse> {
  return callUpstream(host, call, { url: prefixedUpstreamUrl(call, '/images/generations'), headers: bearerAuthorization(call), body }, dsrStatusError);
}
