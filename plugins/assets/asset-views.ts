import type { AssetGroupOwnership, AssetOwnership } from './asset-ownership.js';

/** An asset group as the client sees it. */
export function assetGroupView(record: AssetGroupOwnership): Record<string, unknown> {
  return {
    id: record.id,
    object: 'asset_group',
    name: record.name,
    ...(record.description === undefined ? {} : { description: record.description }),
    group_type: record.group_type,
    created_at: record.created_at,
  };
}

/** An asset as the client sees it: `reference` is what a video request names it by. */
export function assetView(record: AssetOwnership): Record<string, unknown> {
  return {
    id: record.id,
    object: 'asset',
    group_id: record.group_id,
    asset_type: record.asset_type,
    url: record.url,
    ...(record.name === undefined ? {} : { name: record.name }),
    status: record.status,
    reference: `asset://${record.id}`,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
