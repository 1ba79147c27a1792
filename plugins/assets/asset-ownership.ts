import type { AssetGroupType, AssetStatus, AssetType } from '../../core/contracts/asset-requests.js';

/** Who owns a library object, and the channel (upstream account) that holds it. */
interface Owned {
  id: string;
  token_id: number;
  user_id: number;
  /** The channel whose account holds the object; every later call about it goes there. */
  channel: string;
  /** Unix seconds. */
  created_at: number;
}

/** An asset group as the store keeps it. */
export interface AssetGroupOwnership extends Owned {
  name: string;
  description?: string;
  group_type: AssetGroupType;
}

/** An asset as the store keeps it, with the status last seen upstream. */
export interface AssetOwnership extends Owned {
  group_id: string;
  asset_type: AssetType;
  url: string;
  name?: string;
  status: AssetStatus;
  /** Unix seconds of the last status seen. */
  updated_at: number;
}

/** A face validation session waiting for its page's callback. */
export interface ValidationSessionOwnership {
  byted_token: string;
  token_id: number;
  user_id: number;
  channel: string;
  /** Unix seconds. */
  created_at: number;
  /** Unix seconds after which the callback is refused. */
  expires_at: number;
  /** The `liveness_face` group, once the validation passed. */
  group_id?: string;
}
