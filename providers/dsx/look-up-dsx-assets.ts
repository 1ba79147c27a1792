import { GatewayError, invalidRequest, quoted, type OperationCall, type ProviderHost } from '../../core/index.js';
import { callDsxAssetAction } from './call-dsx-asset-api.js';
import type { DsxMediaKind } from './check-dsx-media-url.js';
import type { DsxOptions } from './dsx-options.js';
import type { DsxAssetReference } from './dsx-submission.js';
import { fromVolcAsset } from './from-dsx-asset.js';

/**
 * The kind of every asset a submission references, asked of the channel's asset API
 * (`GetAsset`, upstreams.md §3.5), so each `asset://` reference goes upstream as the item
 * type its asset is. An unknown asset, one still processing or one that failed is a 400
 * naming where it was referenced; the API's own trouble is passed on (retryable when the
 * channel is to blame).
 */
export async function lookUpDsxAssets(host: ProviderHost, call: OperationCall<unknown, DsxOptions>, references: readonly DsxAssetReference[]): Promise<Map<string, DsxMediaKind>> {
  const kinds = new Map<string, DsxMediaKind>();
  for (const reference of references) {
    if (kinds.has(reference.id)) continue;
    let result: unknown;
    try {
      result = await callDsxAssetAction(host, call, 'GetAsset', { Id: reference.id });
    } catch (error) {
      if (GatewayError.is(error) && error.statusCode === 404) {
        throw invalidRequest(`${reference.param}: there is no asset ${quoted(reference.id)} in the asset library; GET /v1/assets lists yours`, { param: reference.param });
      }
      throw error;
    }
    const asset = fromVolcAsset(result);
    if (asset.status === 'processing') {
      throw invalidRequest(`${reference.param}: asset ${quoted(reference.id)} is still processing; poll GET /v1/assets/${reference.id} until its status is active`, { param: reference.param });
    }
    if (asset.status === 'failed') throw invalidRequest(`${reference.param}: asset ${quoted(reference.id)} failed to process; create it again`, { param: reference.param });
    kinds.set(reference.id, asset.asset_type);
  }
  return kinds;
}
