import { randomBytes } from 'node:crypto';
import type { ArkBehaviour } from './ark-behaviour.js';
import { arkInvalidParameterBody } from './ark-error-body.js';
import { isObject } from './ark-wire.js';
import type { VideoTaskPlan, VideoTaskRefusal } from './video-task-request-check.js';

/** An asset group the fake holds (upstreams.md §3.5). */
export interface FakeArkAssetGroup {
  Id: string;
  Name: string;
  Description: string;
  GroupType: 'AIGC' | 'LivenessFace';
  ProjectName: string;
  CreateTime: string;
}

/** An asset the fake holds; its status moves from `Processing` to its end over `GetAsset` reads. */
export interface FakeArkAsset {
  Id: string;
  Name: string;
  GroupId: string;
  AssetType: 'Image' | 'Video' | 'Audio';
  URL: string;
  ProjectName: string;
  CreateTime: string;
  UpdateTime: string;
  /** `GetAsset` reads so far. */
  reads: number;
  /** Reads that still show `Processing`. */
  processingReads: number;
  outcome: 'Active' | 'Failed';
}

/** A face validation session; a test passes it with `passValidation`. */
export interface FakeArkValidationSession {
  BytedToken: string;
  H5Link: string;
  CallbackURL?: string;
  /** The `LivenessFace` group made when it passed. */
  GroupId?: string;
}

/** The outcome of one action: its `Result`, or an error with the HTTP status to send it with. */
export type AssetActionOutcome = { result: Record<string, unknown> } | { status: number; error: { Code: string; Message: string } };

const stamp = (): string => new Date().toISOString().replace(/\D/g, '').slice(0, 14);
const suffix = (): string => Array.from(randomBytes(5), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('');
const assetTypes = new Set(['Image', 'Video', 'Audio']);
const itemTypes: Record<FakeArkAsset['AssetType'], string> = { Image: 'image_url', Video: 'video_url', Audio: 'audio_url' };
const notFound = (what: string, id: unknown): AssetActionOutcome => ({ status: 404, error: { Code: 'ResourceNotFound', Message: `The specified ${what} ${String(id)} is not found.` } });
const invalid = (message: string): AssetActionOutcome => ({ status: 400, error: { Code: 'InvalidParameter', Message: message } });

/** The asset library behind the fake's asset API: groups, assets and face validation sessions. */
export class ArkAssetLibrary {
  readonly groups = new Map<string, FakeArkAssetGroup>();
  readonly assets = new Map<string, FakeArkAsset>();
  readonly sessions = new Map<string, FakeArkValidationSession>();

  /** An asset's status now: `Processing` for its first reads, then its outcome. */
  static statusOf(asset: FakeArkAsset): string {
    return asset.reads < asset.processingReads ? 'Processing' : asset.outcome;
  }

  /** Runs one action of upstreams.md §3.5's table on a JSON body. */
  act(action: string, body: unknown, behaviour: ArkBehaviour, origin: string): AssetActionOutcome {
    const fields = isObject(body) ? body : {};
    const project = typeof fields.ProjectName === 'string' ? fields.ProjectName : 'default';
    const now = new Date().toISOString();
    switch (action) {
      case 'CreateAssetGroup': {
        if (typeof fields.Name !== 'string' || fields.Name === '') return invalid('The parameter Name is required.');
        if (fields.GroupType !== undefined && fields.GroupType !== 'AIGC') return invalid('Only AIGC groups are created by CreateAssetGroup.');
        const group: FakeArkAssetGroup = { Id: `group-${stamp()}-${suffix()}`, Name: fields.Name, Description: String(fields.Description ?? ''), GroupType: 'AIGC', ProjectName: project, CreateTime: now };
        this.groups.set(group.Id, group);
        return { result: { Id: group.Id } };
      }
      case 'GetAssetGroup': {
        const group = this.groups.get(String(fields.Id));
        return group === undefined ? notFound('asset group', fields.Id) : { result: { ...group } };
      }
      case 'ListAssetGroups': {
        const items = [...this.groups.values()];
        return { result: { Items: items, TotalCount: items.length } };
      }
      case 'DeleteAssetGroup': {
        if (!this.groups.delete(String(fields.Id))) return notFound('asset group', fields.Id);
        for (const asset of [...this.assets.values()]) if (asset.GroupId === fields.Id) this.assets.delete(asset.Id);
        return { result: {} };
      }
      case 'CreateAsset': {
        if (!this.groups.has(String(fields.GroupId))) return notFound('asset group', fields.GroupId);
        if (typeof fields.URL !== 'string' || !/^https?:\/\//.test(fields.URL)) return invalid('The parameter URL must be a public http(s) URL; base64 is not supported.');
        if (typeof fields.AssetType !== 'string' || !assetTypes.has(fields.AssetType)) return invalid('The parameter AssetType must be Image, Video or Audio.');
        const asset: FakeArkAsset = {
          Id: `asset-${stamp()}-${suffix()}`,
          Name: typeof fields.Name === 'string' ? fields.Name : '',
          GroupId: String(fields.GroupId),
          AssetType: fields.AssetType as FakeArkAsset['AssetType'],
          URL: fields.URL,
          ProjectName: project,
          CreateTime: now,
          UpdateTime: now,
          reads: 0,
          processingReads: behaviour.assetProcessingReads ?? 1,
          outcome: behaviour.assetOutcome ?? 'Active',
        };
        this.assets.set(asset.Id, asset);
        return { result: { Id: asset.Id, Status: 'Processing' } };
      }
      case 'GetAsset': {
        const asset = this.assets.get(String(fields.Id));
        if (asset === undefined) return notFound('asset', fields.Id);
        const view = this.#view(asset);
        asset.reads += 1;
        return { result: view };
      }
      case 'ListAssets': {
        const filter = isObject(fields.Filter) ? fields.Filter : {};
        const groupIds = Array.isArray(filter.GroupIds) ? filter.GroupIds.map(String) : undefined;
        const items = [...this.assets.values()].filter((asset) => groupIds === undefined || groupIds.includes(asset.GroupId)).map((asset) => this.#view(asset));
        return { result: { Items: items, TotalCount: items.length } };
      }
      case 'DeleteAsset':
        return this.assets.delete(String(fields.Id)) ? { result: {} } : notFound('asset', fields.Id);
      case 'CreateVisualValidateSession': {
        const token = randomBytes(16).toString('hex');
        const session: FakeArkValidationSession = {
          BytedToken: token,
          H5Link: `${origin}/visual-validate/h5?byted_token=${token}`,
          ...(typeof fields.CallbackURL === 'string' ? { CallbackURL: fields.CallbackURL } : {}),
        };
        this.sessions.set(token, session);
        return { result: { BytedToken: session.BytedToken, H5Link: session.H5Link, ...(session.CallbackURL === undefined ? {} : { CallbackURL: session.CallbackURL }) } };
      }
      case 'GetVisualValidateResult': {
        const session = this.sessions.get(String(fields.BytedToken));
        if (session === undefined) return notFound('validation session', fields.BytedToken);
        // The code for a session nobody has passed yet is not recorded in upstreams.md [L].
        if (session.GroupId === undefined) return { status: 200, error: { Code: 'InvalidParameter.ValidationNotPassed', Message: 'The face validation of this session has not passed.' } };
        return { result: { GroupId: session.GroupId } };
      }
      default:
        return { status: 400, error: { Code: 'InvalidAction', Message: `The action ${action} is not valid.` } };
    }
  }

  /** Passes a session's face validation, as the person at its page would: makes its `LivenessFace` group. */
  passValidation(token: string): string {
    const session = this.sessions.get(token);
    if (session === undefined) throw new Error(`no validation session ${token}`);
    if (session.GroupId !== undefined) return session.GroupId;
    const group: FakeArkAssetGroup = { Id: `group-${stamp()}-${suffix()}`, Name: `liveness-${token.slice(0, 8)}`, Description: '', GroupType: 'LivenessFace', ProjectName: 'default', CreateTime: new Date().toISOString() };
    this.groups.set(group.Id, group);
    session.GroupId = group.Id;
    return group.Id;
  }

  /**
   * The refusal of a task create whose `asset://` references are not usable: unknown (worded as
   * upstreams.md §3.5 quotes it), not active yet, or of another kind than the item it is in.
   */
  checkTaskAssets(plan: VideoTaskPlan, requestId: string): VideoTaskRefusal | undefined {
    for (const reference of plan.assets) {
      const asset = this.assets.get(reference.id);
      const refuse = (why: string): VideoTaskRefusal => ({ status: 400, body: arkInvalidParameterBody(reference.param, why, requestId) });
      if (asset === undefined) return refuse(`The specified asset ${reference.id} is not found`);
      if (ArkAssetLibrary.statusOf(asset) !== 'Active') return refuse(`The specified asset ${reference.id} is not active`);
      if (itemTypes[asset.AssetType] !== reference.type) return refuse(`The specified asset ${reference.id} is a ${asset.AssetType} asset and cannot be used as ${reference.type}`);
    }
    return undefined;
  }

  #view(asset: FakeArkAsset): Record<string, unknown> {
    return {
      Id: asset.Id,
      Name: asset.Name,
      GroupId: asset.GroupId,
      AssetType: asset.AssetType,
      URL: asset.URL,
      Status: ArkAssetLibrary.statusOf(asset),
      ProjectName: asset.ProjectName,
      CreateTime: asset.CreateTime,
      UpdateTime: asset.UpdateTime,
    };
  }
}
