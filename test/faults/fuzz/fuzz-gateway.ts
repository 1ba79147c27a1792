import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Test } from 'tap';
import { buildApp } from '../../../server/build-app.js';
import { createLogger } from '../../../core/logging/create-logger.js';
import { startFakeArkUpstream } from '../../fakes/ark/fake-ark-upstream.js';
import { startFakeDashScopeUpstream } from '../../fakes/dashscope/fake-dashscope-upstream.js';
import { startFakeGxUpstream, tinyPngBase64 } from '../../fakes/gx/fake-gx-upstream.js';
import { startFakeOpenAiUpstream } from '../../fakes/openai/fake-openai-upstream.js';
import { startFakeVeoUpstream } from '../../fakes/veo/fake-veo-upstream.js';
import { UserService } from '../../../core/users/user-service.js';
import { familyPricing, gxUpstreamKey, openAiChannelsOn } from '../../helpers/gateway-scenario.js';
import { gatewayConfigSchema } from '../../../core/config/config-schema.js';
import { testConfig } from '../../helpers/test-config.js';
import type { FuzzEnvironment } from './fuzz-routes.js';

/** The gateway the fuzz hits, the ids its routes need, and what it logged as failures. */
export interface FuzzGateway {
  app: FastifyInstance;
  environment: FuzzEnvironment;
  /** Log lines at level error or worse (the first 50), and how many there were. */
  errors: { lines: string[]; count: number };
  /** Requests the canary server received: each is a hostile URL the gateway fetched. */
  canaryHits: string[];
  /** Forgets what the fakes recorded, so their memory does not count as the gateway's. */
  forgetUpstreamRequests(): void;
}

const openAiKey = 'openai-upstream-key';
const arkKey = 'ark-upstream-key';
const arkKeys = { accessKeyId: 'fuzz-ak', secretAccessKey: 'fuzz-sk' };
const dashScopeKey = 'dashscope-upstream-key';
const veoKey = 'veo-upstream-key';

/** The channels as given, or with each model entry made a pattern of the names it starts (`model_map` keys stay exact). */
function servingPatterns(patterns: boolean, providers: Array<{ models: string[] } & Record<string, unknown>>) {
  if (!patterns) return providers;
  return providers.map((provider) => ({ ...provider, models: provider.models.map((model) => (model.endsWith('*') ? model : `${model}*`)) }));
}

/** A logger that keeps only errors: the fuzz sends thousands of requests, and a log in memory would look like a leak. */
function errorCountingLogger(errors: FuzzGateway['errors']): FastifyBaseLogger {
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      const line = String(chunk);
      if (/"level":(5\d|60)/.test(line)) {
        errors.count += 1;
        if (errors.lines.length < 50) errors.lines.push(line.slice(0, 4000));
      }
      callback();
    },
  });
  return createLogger({ level: 'warn', destination }) as unknown as FastifyBaseLogger;
}

/** Options of {@link startFuzzGateway}. */
export interface FuzzGatewayOptions {
  /**
   * Each channel serves every model its name starts (`gx-2.5-pro*`, the shipped config's
   * way), priced so, and the fakes know only the models the routes' valid requests name: any
   * other name reaches the upstream and gets its "model not found" (the DashScope fake's
   * video models are always so; its image path and the qi channel know every name).
   */
  patterns?: boolean;
}

// The upstream models the routes' valid requests reach, for `patterns`.
const knownModels = {
  gx: ['gx-2.5-pro', 'embed-latest', 'gx-2.5-flash-image'],
  openAi: ['gpt-5.4', 'gpt-image-2', 'tts-1', 'whisper-1', 'sora-2'],
  ark: ['sdx-2-0', 'doubao-seedream-4-0-250828'],
  veo: ['veo-3.1-fast-generate-preview'],
};
const patternPricing = {
  'gx-2.5-flash-image*': { per_image: 0.04 },
  'embed-latest*': { per_call: 0.0001 },
  'gi-2*': { per_image: 0.04 },
  'tts-1*': { per_1k_chars: 0.015 },
  'stt-1*': { per_minute: 0.006 },
  'sr-2*': { per_second: 0.1 },
};

/**
 * A gateway with a channel for every route family, each in front of a fake upstream, so
 * that an input the gateway lets through is answered instead of failing on an unreachable
 * upstream. Media downloads are capped short (no real host is ever reached). The store is
 * SQLite, so what the fuzz creates (tokens, tasks, assets) lives on disk and the heap shows
 * only the gateway's own memory; on a RAM disk when there is one, as fsync would take the
 * run's time.
 */
export async function startFuzzGateway(t: Test, options: FuzzGatewayOptions = {}): Promise<FuzzGateway> {
  const known = (models: string[]) => (options.patterns === true ? { models } : {});
  const gx = await startFakeGxUpstream({ apiKey: gxUpstreamKey, ...known(knownModels.gx) });
  const openAi = await startFakeOpenAiUpstream({ apiKey: openAiKey, ...known(knownModels.openAi) });
  const ark = await startFakeArkUpstream({ apiKey: arkKey, ...arkKeys, ...known(knownModels.ark) });
  const dashScope = await startFakeDashScopeUpstream({ apiKey: dashScopeKey });
  const veo = await startFakeVeoUpstream({ apiKey: veoKey, ...known(knownModels.veo) });
  t.teardown(() => Promise.all([gx.close(), openAi.close(), ark.close(), dashScope.close(), veo.close()]));
  const openAiChannel = openAiChannelsOn(openAi.url, openAiKey);
  const directory = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'mg-fuzz-'));
  t.teardown(() => rmSync(directory, { recursive: true, force: true }));
  const storage = gatewayConfigSchema.shape.storage.parse({ driver: 'sqlite', path: join(directory, 'gateway.sqlite'), data_dir: directory });
  const config = testConfig(storage, {
    server: { body_limit_mb: 2 },
    security: { encryption_key: 'test-encryption-key-0123456789abcdef', media: { timeout_ms: 500, max_bytes: 1_048_576 } },
    audio: { max_upload_mb: 1 },
    tasks: { min_poll_interval_ms: 0, background_poll_ms: 3_600_000 },
    pricing: {
      ...familyPricing,
      'sdx-*': { per_second: 0.2 },
      'dsr-*': { per_image: 0.03 },
      'qi-*': { per_image: 0.03 },
      'wn*': { per_second: 0.1, resolution_multipliers: { '480p': 1, '720p': 1, '1080p': 2 } },
      'hx-*': { per_second: 0.1, resolution_multipliers: { '720p': 1, '1080p': 2 } },
      'vo-*': { per_second: 0.1, resolution_multipliers: { '720p': 1, '1080p': 1.5 } },
      ...(options.patterns === true ? patternPricing : {}),
    },
    providers: servingPatterns(options.patterns === true, [
      { name: 'gx', plugin: 'gx', base_url: gx.url, api_key: gxUpstreamKey, models: ['gx-2.5-pro', 'embed-latest', 'gx-2.5-flash-image'] },
      openAiChannel('gp', 'gp', ['gp-5.4'], { 'gp-5.4': 'gpt-5.4' }),
      openAiChannel('gi', 'gi', ['gi-2'], { 'gi-2': 'gpt-image-2' }),
      openAiChannel('audio', 'audio', ['tts-1', 'stt-1'], { 'stt-1': 'whisper-1' }),
      openAiChannel('sr', 'sr', ['sr-2'], { 'sr-2': 'sora-2' }),
      {
        name: 'ark',
        plugin: 'dsx',
        base_url: ark.url,
        api_key: arkKey,
        models: ['sdx-*'],
        options: { assets: { base_url: ark.url, access_key_id: arkKeys.accessKeyId, secret_access_key: arkKeys.secretAccessKey } },
      },
      { name: 'dsr', plugin: 'dsr', base_url: ark.url, api_key: arkKey, models: ['dsr-4-0-250828'], model_map: { 'dsr-4-0-250828': 'doubao-seedream-4-0-250828' } },
      { name: 'qi', plugin: 'qi', base_url: dashScope.url, api_key: dashScopeKey, models: ['qi-plus'], model_map: { 'qi-plus': 'qwen-image-plus' } },
      {
        name: 'wn',
        plugin: 'wn',
        base_url: dashScope.url,
        api_key: dashScopeKey,
        models: ['wn2.5-i2v-preview', 'wn2.7-r2v'],
        model_map: { 'wn2.5-i2v-preview': 'wan2.5-i2v-preview', 'wn2.7-r2v': 'wan2.7-r2v' },
      },
      { name: 'hx', plugin: 'hx', base_url: dashScope.url, api_key: dashScopeKey, models: ['hx-1.0-r2v'], model_map: { 'hx-1.0-r2v': 'happyhorse-1.0-r2v' } },
      { name: 'vo', plugin: 'vo', base_url: veo.url, api_key: veoKey, models: ['vo-3.1-fast-generate-preview'], model_map: { 'vo-3.1-fast-generate-preview': 'veo-3.1-fast-generate-preview' } },
    ]),
  });
  const canaryHits: string[] = [];
  const canary = createServer((request, response) => {
    canaryHits.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(tinyPngBase64, 'base64'));
  });
  // Dual stack where there is IPv6, so http://[::1]:port reaches it as well as 127.0.0.1.
  await new Promise<void>((resolve) => canary.listen({ port: 0, host: '::', ipv6Only: false }, () => resolve())).catch(() => undefined);
  if (!canary.listening) await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', () => resolve()));
  t.teardown(() => new Promise<void>((resolve) => canary.close(() => resolve())));
  const canaryPort = (canary.address() as AddressInfo).port;

  const errors = { lines: [] as string[], count: 0 };
  const app = await buildApp(config, { logger: errorCountingLogger(errors) });
  t.teardown(() => app.close());

  const users = app.gateway.resolve(UserService);
  const apiUser = (await users.create('fuzz-api')).loginToken;
  const manager = (await users.create('fuzz-manager')).loginToken;
  const asUser = async (login: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await app.inject({ method, url, headers: { authorization: `Bearer ${login}` }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    if (response.statusCode !== 200) throw new Error(`${method} ${url}: ${response.payload}`);
    return response.json();
  };
  await asUser(apiUser, 'POST', '/api/token/', { name: 'fuzz', unlimited_quota: true });
  const apiTokenId = (await asUser(apiUser, 'GET', '/api/token/')).data.items[0].id as number;
  const apiKey = `sk-${(await asUser(apiUser, 'POST', `/api/token/${apiTokenId}/key`)).data.key as string}`;
  await asUser(manager, 'POST', '/api/token/', { name: 'managed', remain_quota: 1000 });
  const tokenId = (await asUser(manager, 'GET', '/api/token/')).data.items[0].id as number;

  const asApi = async (url: string, payload: Record<string, unknown>) => {
    const response = await app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${apiKey}` }, payload });
    if (response.statusCode !== 200) throw new Error(`POST ${url}: ${response.payload}`);
    return response.json();
  };
  const taskId = (await asApi('/v1/video/generations', { model: 'sr-2', prompt: 'a cat' })).task_id as string;
  const videoId = (await asApi('/v1/videos', { model: 'sr-2', prompt: 'a dog' })).id as string;
  const groupId = (await asApi('/v1/asset-groups', { name: 'cast' })).id as string;
  const assetId = (await asApi('/v1/assets', { group_id: groupId, url: 'https://media.example/clip.mp4', asset_type: 'video', name: 'clip' })).id as string;

  return {
    app,
    environment: { apiKey, loginToken: manager, tokenId, taskId, videoId, groupId, assetId, canaryPort },
    errors,
    canaryHits,
    forgetUpstreamRequests: () => {
      gx.requests.length = 0;
      openAi.requests.length = 0;
      ark.requests.length = 0;
    },
  };
}
