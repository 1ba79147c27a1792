import { z } from 'zod';
import {
  emptyUsage,
  GatewayError,
  malformedUpstreamAnswer,
  type AssetCreateRequest,
  type AssetGroupCreation,
  type AssetGroupQuery,
  type AssetGroupRecord,
  type AssetQuery,
  type AssetRecord,
  type AssetStatus,
  type AssetType,
  type JsonResult,
  type OperationCall,
  type OperationHandler,
  type ProviderHost,
  type ValidationResultQuery,
  type ValidationSessionCreation,
} from '../../core/index.js';
import { fieldError, ownEntry, quoted } from '../../core/kit/index.js';
import { callDsxAssetAction } from './call-dsx-asset-api.js';
import type { DsxMediaKind } from './check-dsx-media-url.js';
import type { DsxOptions } from './dsx-options.js';
import type { DsxAssetReference } from './dsx-request-schema.js';

// Lenient: the asset API's fields come from client implementations, not an official SDK
// (upstreams.md §3.5 [M]); only what the gateway reads is checked.
const text = z.string().nullish();
const volcAssetSchema = z.looseObject({ Id: z.string().min(1), Name: text, GroupId: text, AssetType: text, URL: text, Status: text });
const volcIdSchema = z.looseObject({ Id: z.string().min(1) });
const volcValidationResultSchema = z.looseObject({ GroupId: z.string().min(1) });
const volcValidationSessionSchema = z.looseObject({ BytedToken: z.string().min(1), H5Link: z.string().min(1) });

// The asset API's `AssetType` and `Status` values (upstreams.md §3.5).
const volcAssetTypes: Record<AssetType, string> = { image: 'Image', video: 'Video', audio: 'Audio' };
const assetTypes: Record<string, AssetType> = { Image: 'image', Video: 'video', Audio: 'audio' };
const statuses: Record<string, AssetStatus> = { Processing: 'processing', Active: 'active', Failed: 'failed' };

/** An answer of the asset API read by `schema`; one without `what` is a 502 that is not retried. */
function read<Output>(schema: z.ZodType<Output>, value: unknown, what: string): Output {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw malformedUpstreamAnswer(`the asset API answered without ${what}`, { retryable: false, cause: parsed.error });
}

/**
 * An asset of the asset API as the gateway's `AssetRecord`: `Processing` / `Active` / `Failed`
 * in lower case, any other status read as processing (not usable yet); `fallback` fills what
 * a create's answer leaves out. A body without an `Id` is a 502.
 */
export function fromVolcAsset(result: unknown, fallback: Partial<AssetRecord> = {}): AssetRecord {
  const asset = read(volcAssetSchema, result, 'an asset id');
  const name = asset.Name ?? fallback.name;
  return {
    id: asset.Id,
    group_id: asset.GroupId ?? fallback.group_id ?? '',
    asset_type: ownEntry(assetTypes, asset.AssetType ?? '') ?? fallback.asset_type ?? 'image',
    url: asset.URL ?? fallback.url ?? '',
    ...(name === undefined || name === '' ? {} : { name }),
    status: ownEntry(statuses, asset.Status ?? '') ?? fallback.status ?? 'processing',
  };
}

/**
 * The kind of every asset a submission references, asked of the channel's asset API
 * (`GetAsset`, upstreams.md §3.5), so each `asset://` reference goes upstream as the item
 * type its asset is. An unknown asset, one still processing or one that failed is a 400
 * naming where it was referenced; the API's own trouble is passed on.
 */
export async function lookUpDsxAssets(host: ProviderHost, call: OperationCall<unknown, DsxOptions>, references: readonly DsxAssetReference[]): Promise<Map<string, DsxMediaKind>> {
  const kinds = new Map<string, DsxMediaKind>();
  for (const { id, param } of references) {
    if (kinds.has(id)) continue;
    let result: unknown;
    try {
      result = await callDsxAssetAction(host, call, 'GetAsset', { Id: id });
    } catch (error) {
      if (GatewayError.is(error) && error.statusCode === 404) {
        throw fieldError(param, `there is no asset ${quoted(id)} in the asset library; GET /v1/assets lists yours`);
      }
      throw error;
    }
    const asset = fromVolcAsset(result);
    if (asset.status === 'processing') throw fieldError(param, `asset ${quoted(id)} is still processing; poll GET /v1/assets/${id} until its status is active`);
    if (asset.status === 'failed') throw fieldError(param, `asset ${quoted(id)} failed to process; create it again`);
    kinds.set(id, asset.asset_type);
  }
  return kinds;
}

type Handler<Request> = OperationHandler<Request, DsxOptions, JsonResult>;

/** A JSON answer that costs nothing and pins `key` to this channel: the object lives in this channel's account. */
const answer = (body: unknown, key?: string): JsonResult => ({ kind: 'json', body, usage: emptyUsage('upstream'), ...(key === undefined ? {} : { affinityKey: key }) });

/** The names of the `assets.*` operations below. */
export const dsxAssetOperationNames = ['assets.createGroup', 'assets.deleteGroup', 'assets.create', 'assets.get', 'assets.delete', 'assets.createValidationSession', 'assets.getValidationResult'] as const;

/** The `assets.*` operations on the asset API of upstreams.md §3.5 (see `callDsxAssetAction`). */
export function createDsxAssetOperations(host: ProviderHost): {
  'assets.createGroup': Handler<AssetGroupCreation>;
  'assets.deleteGroup': Handler<AssetGroupQuery>;
  'assets.create': Handler<AssetCreateRequest>;
  'assets.get': Handler<AssetQuery>;
  'assets.delete': Handler<AssetQuery>;
  'assets.createValidationSession': Handler<ValidationSessionCreation>;
  'assets.getValidationResult': Handler<ValidationResultQuery>;
} {
  return {
    'assets.createGroup': async (call) => {
      const { name, description } = call.request;
      const result = await callDsxAssetAction(host, call, 'CreateAssetGroup', { Name: name, ...(description === undefined ? {} : { Description: description }), GroupType: 'AIGC' });
      const { Id } = read(volcIdSchema, result, 'a group id');
      const group: AssetGroupRecord = { id: Id, name, ...(description === undefined ? {} : { description }), group_type: 'aigc' };
      return answer(group, Id);
    },
    'assets.deleteGroup': async (call) => {
      await callDsxAssetAction(host, call, 'DeleteAssetGroup', { Id: call.request.group_id });
      return answer({ id: call.request.group_id, deleted: true });
    },
    'assets.create': async (call) => {
      const { group_id, url, asset_type, name } = call.request;
      const fields = { GroupId: group_id, URL: url, AssetType: volcAssetTypes[asset_type], ...(name === undefined ? {} : { Name: name }) };
      const result = await callDsxAssetAction(host, call, 'CreateAsset', fields);
      const asset = fromVolcAsset(result, { group_id, url, asset_type, name, status: 'processing' });
      return answer(asset, asset.id);
    },
    'assets.get': async (call) => answer(fromVolcAsset(await callDsxAssetAction(host, call, 'GetAsset', { Id: call.request.asset_id }))),
    'assets.delete': async (call) => {
      await callDsxAssetAction(host, call, 'DeleteAsset', { Id: call.request.asset_id });
      return answer({ id: call.request.asset_id, deleted: true });
    },
    'assets.createValidationSession': async (call) => {
      const result = await callDsxAssetAction(host, call, 'CreateVisualValidateSession', { CallbackURL: call.request.callback_url });
      const session = read(volcValidationSessionSchema, result, 'a session token and page');
      return answer({ byted_token: session.BytedToken, h5_link: session.H5Link }, session.BytedToken);
    },
    'assets.getValidationResult': async (call) => {
      const result = await callDsxAssetAction(host, call, 'GetVisualValidateResult', { BytedToken: call.request.byted_token });
      const { GroupId } = read(volcValidationResultSchema, result, 'the validated group');
      return answer({ group_id: GroupId }, GroupId);
    },
  };
}
