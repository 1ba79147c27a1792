import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { z } from 'zod';
import type { GatewayConfig } from '../../core/config/config-schema.js';
import {
  assetCreateRequestSchema,
  assetGroupCreateRequestSchema,
  validationSessionRequestSchema,
  type AssetRecord,
} from '../../core/contracts/asset-requests.js';
import type { PipelineOperation } from '../../core/pipeline/operation-invocation.js';
import { emptyUsage } from '../../core/contracts/usage.js';
import { invalidRequest, notFound, untrustedHost } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { CallChannel } from '../../core/pipeline/channel-call.js';
import type { ModelRequestPipeline } from '../../core/pipeline/model-request-pipeline.js';
import { ChannelAffinity } from '../../core/routing/channel-affinity.js';
import type { StoreBackend } from '../../core/store/store-backend.js';
import type { TokenView } from '../../core/tokens/token-record.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { clientAbortSignal } from '../http/client-abort-signal.js';
import type { AssetGroupOwnership, AssetOwnership } from './asset-ownership.js';
import type { AssetOwnershipRepository } from './asset-ownership-repository.js';
import { assetGroupView, assetView } from './asset-views.js';
import { checkPublicHttpsUrl } from './check-public-https-url.js';
import { modelInvocation } from '../model-routes/model-invocation.js';
import { quoted } from '../../core/errors/client-text.js';
import { apiTokenOf } from '../auth/route-auth.js';
import { gatewayAddress } from '../http/gateway-address.js';

/** How long a face validation session waits for its callback. */
const sessionSeconds = 3600;
/** The most processing assets one listing asks the upstream about. */
const maxRefreshesPerListing = 20;

const seconds = (now: number) => Math.floor(now / 1000);
const tokenOf = (request: FastifyRequest): TokenView => apiTokenOf(request).token;
/** Every asset route but the validation callback takes the caller's API key. */
const apiKey = { config: { auth: 'api-key', dialect: 'openai' } } as const;
const bytedTokenSchema = z.strictObject({
  byted_token: z.string({ error: 'expected the session token the validation page reports' }).regex(/^[A-Za-z0-9_.-]{8,256}$/, { error: 'expected a session token' }),
});

/**
 * The asset library of spec part 2 (asset groups, assets, face validation) as operations of
 * the `assets.model` model: each call goes through the pipeline, so auth, model limits, groups
 * and routing apply and nothing is charged (the estimate is empty). Ownership lives in the
 * store: a user sees, uses and deletes only their own groups and assets (another's is a 404),
 * and every later call about an object goes to the channel whose account holds it. The video
 * submit routes refuse `asset://` references to assets that are not the caller's with
 * `assetReferenceGuard` on the same `repository`, which the server registers on them.
 */
export const assetsPlugin = fastifyPlugin(
  async (
    app: FastifyInstance,
    options: { pipeline: ModelRequestPipeline; callChannel: CallChannel; config: GatewayConfig; backend: StoreBackend; repository: AssetOwnershipRepository },
  ) => {
    const { pipeline, callChannel, config, repository } = options;
    const affinity = new ChannelAffinity(options.backend.keyv<string>('affinity'), config.routing.affinity.ttl_ms);
    const model = config.assets.model;
    const address = gatewayAddress(config.server);

    /** Runs one asset operation for the caller; `on` pins it to the channel that holds that object. */
    const run = async (request: FastifyRequest, reply: FastifyReply, operation: PipelineOperation, body: unknown, on?: { id: string; channel: string }): Promise<Record<string, unknown>> => {
      if (on !== undefined && on.channel !== '') await affinity.remember(on.id, on.channel);
      const outcome = await pipeline.run(modelInvocation(request, reply, {
        operation,
        request: body,
        model,
        stream: false,
        estimate: emptyUsage('estimated'),
        ...(on === undefined ? {} : { affinityKey: on.id }),
      }));
      if (outcome.kind !== 'json' || typeof outcome.body !== 'object' || outcome.body === null) {
        throw new GatewayError(502, 'upstream_invalid_response', `the provider did not answer ${operation} with a record`);
      }
      return outcome.body as Record<string, unknown>;
    };
    const channelOf = async (id: string) => (await affinity.channelOf(id)) ?? '';
    const ownedGroup = async (request: FastifyRequest, id: string, param?: string): Promise<AssetGroupOwnership> => {
      const record = await repository.group(id);
      if (record === undefined || record.user_id !== tokenOf(request).user_id) {
        throw new GatewayError(404, 'asset_group_not_found', `${param === undefined ? '' : `${param}: `}there is no asset group ${quoted(id)} in your library`, param === undefined ? {} : { param });
      }
      return record;
    };
    const ownedAsset = async (request: FastifyRequest, id: string): Promise<AssetOwnership> => {
      const record = await repository.asset(id);
      if (record === undefined || record.user_id !== tokenOf(request).user_id) throw notFound(`there is no asset ${quoted(id)} in your library`, 'asset_not_found');
      return record;
    };
    /** Asks the upstream about an asset and keeps what it says; an asset the upstream lost is forgotten (404). */
    const refresh = async (request: FastifyRequest, reply: FastifyReply, record: AssetOwnership): Promise<AssetOwnership> => {
      let fresh: AssetRecord;
      try {
        fresh = (await run(request, reply, 'assets.get', { asset_id: record.id }, record)) as unknown as AssetRecord;
      } catch (error) {
        if (GatewayError.is(error) && error.statusCode === 404) {
          await repository.deleteAsset(record);
          throw notFound(`the asset "${record.id}" no longer exists upstream`, 'asset_not_found');
        }
        throw error;
      }
      const updated: AssetOwnership = { ...record, status: fresh.status ?? record.status, url: fresh.url || record.url, updated_at: seconds(Date.now()) };
      await repository.saveAsset(updated);
      return updated;
    };

    app.post('/v1/asset-groups', apiKey, async (request, reply) => {
      const body = parseClientInput(assetGroupCreateRequestSchema, request.body ?? {});
      const created = await run(request, reply, 'assets.createGroup', body);
      const id = String(created.id ?? '');
      if (id === '') throw new GatewayError(502, 'upstream_invalid_response', 'the provider did not report the new group\'s id');
      const token = tokenOf(request);
      const record: AssetGroupOwnership = {
        id,
        token_id: token.id,
        user_id: token.user_id,
        channel: await channelOf(id),
        created_at: seconds(Date.now()),
        name: body.name,
        ...(body.description === undefined ? {} : { description: body.description }),
        group_type: 'aigc',
      };
      await repository.saveGroup(record);
      return assetGroupView(record);
    });

    app.get('/v1/asset-groups', apiKey, async (request) => {
      const type = (request.query as { group_type?: unknown }).group_type;
      if (type !== undefined && type !== 'aigc' && type !== 'liveness_face') throw invalidRequest('group_type: expected aigc or liveness_face', { param: 'group_type' });
      const groups = (await repository.groupsOf(tokenOf(request).user_id)).filter((group) => type === undefined || group.group_type === type);
      return { object: 'list', data: groups.map(assetGroupView) };
    });

    app.delete('/v1/asset-groups/:group_id', apiKey, async (request, reply) => {
      const record = await ownedGroup(request, (request.params as { group_id: string }).group_id);
      await run(request, reply, 'assets.deleteGroup', { group_id: record.id }, record).catch((error: unknown) => {
        // Already gone upstream: forgetting it here is all that is left to do.
        if (!(GatewayError.is(error) && error.statusCode === 404)) throw error;
      });
      await repository.deleteGroup(record);
      return { id: record.id, object: 'asset_group', deleted: true };
    });

    app.post('/v1/assets', apiKey, async (request, reply) => {
      const body = parseClientInput(assetCreateRequestSchema, request.body ?? {});
      checkPublicHttpsUrl(body.url, 'url');
      const group = await ownedGroup(request, body.group_id, 'group_id');
      const created = (await run(request, reply, 'assets.create', body, group)) as unknown as AssetRecord;
      if (typeof created.id !== 'string' || created.id === '') throw new GatewayError(502, 'upstream_invalid_response', 'the provider did not report the new asset\'s id');
      const token = tokenOf(request);
      const now = seconds(Date.now());
      const record: AssetOwnership = {
        id: created.id,
        token_id: token.id,
        user_id: token.user_id,
        channel: (await channelOf(created.id)) || group.channel,
        created_at: now,
        updated_at: now,
        group_id: group.id,
        asset_type: body.asset_type,
        url: body.url,
        ...(body.name === undefined ? {} : { name: body.name }),
        status: created.status ?? 'processing',
      };
      await repository.saveAsset(record);
      return assetView(record);
    });

    app.get('/v1/assets', apiKey, async (request, reply) => {
      const query = request.query as { group_id?: unknown; status?: unknown };
      if (query.status !== undefined && !['processing', 'active', 'failed'].includes(String(query.status))) {
        throw invalidRequest('status: expected processing, active or failed', { param: 'status' });
      }
      const groups = typeof query.group_id === 'string' ? [await ownedGroup(request, query.group_id, 'group_id')] : await repository.groupsOf(tokenOf(request).user_id);
      const assets = (await Promise.all(groups.map((group) => repository.assetsOf(group.id)))).flat().sort((a, b) => b.created_at - a.created_at);
      let refreshes = 0;
      const current: AssetOwnership[] = [];
      for (const asset of assets) {
        if (asset.status !== 'processing' || refreshes >= maxRefreshesPerListing) {
          current.push(asset);
          continue;
        }
        refreshes += 1;
        const fresh = await refresh(request, reply, asset).catch((error: unknown) => {
          if (GatewayError.is(error) && error.statusCode === 404) return undefined;
          throw error;
        });
        if (fresh !== undefined) current.push(fresh);
      }
      return { object: 'list', data: current.filter((asset) => query.status === undefined || asset.status === query.status).map(assetView) };
    });

    app.get('/v1/assets/:virtual_id', apiKey, async (request, reply) => {
      const record = await ownedAsset(request, (request.params as { virtual_id: string }).virtual_id);
      return assetView(await refresh(request, reply, record));
    });

    app.delete('/v1/assets/:virtual_id', apiKey, async (request, reply) => {
      const record = await ownedAsset(request, (request.params as { virtual_id: string }).virtual_id);
      await run(request, reply, 'assets.delete', { asset_id: record.id }, record).catch((error: unknown) => {
        if (!(GatewayError.is(error) && error.statusCode === 404)) throw error;
      });
      await repository.deleteAsset(record);
      return { id: record.id, object: 'asset', deleted: true };
    });

    app.post('/v1/visual-validate/session', apiKey, async (request, reply) => {
      parseClientInput(validationSessionRequestSchema, request.body ?? {});
      // The page reports back to this gateway, so the address must be absolute and one the
      // gateway is known by: a forged Host would send the callback to another server.
      const callbackUrl = address(request, '/v1/visual-validate/result');
      if (callbackUrl.startsWith('/')) throw untrustedHost(request.host);
      const session = await run(request, reply, 'assets.createValidationSession', { callback_url: callbackUrl });
      const bytedToken = String(session.byted_token ?? '');
      if (bytedToken === '' || typeof session.h5_link !== 'string') throw new GatewayError(502, 'upstream_invalid_response', 'the provider did not report the validation page');
      const token = tokenOf(request);
      const now = Date.now();
      const expiresAt = seconds(now) + sessionSeconds;
      await repository.saveSession({ byted_token: bytedToken, token_id: token.id, user_id: token.user_id, channel: await channelOf(bytedToken), created_at: seconds(now), expires_at: expiresAt }, now);
      return { object: 'visual_validate.session', h5_link: session.h5_link, byted_token: bytedToken, group_type: 'liveness_face', status: 'pending', expires_at: expiresAt };
    });

    // The validation page's callback carries no API key of the caller (`auth: 'none'`). Only
    // a session this gateway opened, still open, is accepted; the group goes to its owner.
    app.post('/v1/visual-validate/result', { config: { auth: 'none', dialect: 'openai' } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const given = typeof request.body === 'object' && request.body !== null ? request.body : { byted_token: query.byted_token };
      const { byted_token: bytedToken } = parseClientInput(bytedTokenSchema, given);
      const session = await repository.session(bytedToken);
      const now = Date.now();
      if (session === undefined || session.expires_at <= seconds(now)) throw notFound('no open face validation session has this token; start one with POST /v1/visual-validate/session', 'session_not_found');
      if (session.group_id === undefined) {
        const result = await callChannel({ channel: session.channel, operation: 'assets.getValidationResult', request: { byted_token: bytedToken }, model, signal: clientAbortSignal(reply), requestId: request.id });
        if (result === undefined) throw new GatewayError(410, 'channel_removed', 'the channel that opened this session is no longer configured');
        const groupId = String((result.body as { group_id?: unknown } | null)?.group_id ?? '');
        if (groupId === '') throw new GatewayError(502, 'upstream_invalid_response', 'the provider did not report the validated group');
        await repository.saveGroup({
          id: groupId,
          token_id: session.token_id,
          user_id: session.user_id,
          channel: session.channel,
          created_at: seconds(now),
          name: 'liveness face',
          group_type: 'liveness_face',
        });
        await repository.saveSession({ ...session, group_id: groupId }, now);
        return { success: true, group_id: groupId, group_type: 'liveness_face' };
      }
      return { success: true, group_id: session.group_id, group_type: 'liveness_face' };
    });
  },
  { name: 'assets' },
);
