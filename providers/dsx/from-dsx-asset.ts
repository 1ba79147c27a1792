import { malformedUpstreamAnswer, type AssetRecord, type AssetStatus, type AssetType } from '../../core/index.js';
import { volcAssetSchema } from './dsx-asset-schemas.js';

const assetTypes: Record<string, AssetType> = { Image: 'image', Video: 'video', Audio: 'audio' };
const statuses: Record<string, AssetStatus> = { Processing: 'processing', Active: 'active', Failed: 'failed' };

/** The asset API's `AssetType` for one of the gateway's (upstreams.md §3.5: `Image`, `Video`, `Audio`). */
export const volcAssetType = (type: AssetType): string => ({ image: 'Image', video: 'Video', audio: 'Audio' })[type];

/**
 * An asset of the asset API as the gateway's `AssetRecord`: `Processing` / `Active` / `Failed`
 * in lower case, any other status read as processing (not usable yet); `fallback` fills what
 * a create's answer leaves out. A body without an `Id` is a 502.
 */
export function fromVolcAsset(result: unknown, fallback: Partial<AssetRecord> = {}): AssetRecord {
  const parsed = volcAssetSchema.safeParse(result);
  if (!parsed.success) throw malformedUpstreamAnswer('the asset API answered without an asset id', { retryable: false, cause: parsed.error });
  const asset = parsed.data;
  const name = asset.Name ?? fallback.name;
  return {
    id: asset.Id,
    group_id: asset.GroupId ?? fallback.group_id ?? '',
    asset_type: assetTypes[asset.AssetType ?? ''] ?? fallback.asset_type ?? 'image',
    url: asset.URL ?? fallback.url ?? '',
    ...(name === undefined || name === '' ? {} : { name }),
    status: statuses[asset.Status ?? ''] ?? fallback.status ?? 'processing',
  };
}
