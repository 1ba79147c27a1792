import {
  emptyUsage,
  malformedUpstreamAnswer,
  type AssetCreateRequest,
  type AssetGroupCreation,
  type AssetGroupQuery,
  type AssetGroupRecord,
  type AssetQuery,
  type JsonResult,
  type OperationHandler,
  type ProviderHost,
  type ValidationResultQuery,
  type ValidationSessionCreation,
} from '../../core/index.js';
import { callDsxAssetAction } from './call-dsx-asset-api.js';
import { volcIdSchema, volcValidationResultSchema, volcValidationSessionSchema } from './dsx-asset-schemas.js';
import type { DsxOptions } from './dsx-options.js';
import { fromVolcAsset, volcAssetType } from './from-dsx-asset.js';

type Handler<Request> = OperationHandler<Request, DsxOptions>;

/** A JSON answer that costs nothing and pins `key` to this channel: the object lives in this channel's account. */
const answer = (body: unknown, key?: string): JsonResult => ({ kind: 'json', body, usage: emptyUsage('upstream'), ...(key === undefined ? {} : { affinityKey: key }) });

function read<Output>(schema: { safeParse(value: unknown): { success: true; data: Output } | { success: false; error: unknown } }, value: unknown, what: string): Output {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw malformedUpstreamAnswer(`the asset API answered without ${what}`, { retryable: false, cause: parsed.error });
}

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
      const result = await callDsxAssetAction(host, call, 'CreateAsset', { GroupId: group_id, URL: url, AssetType: volcAssetType(asset_type), ...(name === undefined ? {} : { Name: name }) });
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
