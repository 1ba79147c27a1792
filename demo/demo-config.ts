import { randomBytes } from 'node:crypto';
import { stringify } from 'yaml';
import type { DemoUpstreams } from './demo-upstreams.js';

/** The id of the user the demo config declares; the demo's API key is one of its tokens. */
export const demoUserId = 1;

/** What {@link demoConfig} needs besides the fakes. */
export interface DemoConfigOptions {
  host: string;
  port: number;
  /** The demo's temporary directory: the memory store's data_dir. */
  directory: string;
  /** The demo user's login token, for the management API. */
  loginToken: string;
  upstreams: DemoUpstreams;
}

/**
 * One channel per model family, each on the fake of its vendor's wire format, with the spec's
 * model ids and the vendor ids in `model_map` as config/gateway.yaml shows them. Prices come
 * from the shipped catalog, which prices every one of these ids.
 */
export function demoChannels({ gx, openai, ark, dashscope, veo }: DemoUpstreams): Array<Record<string, unknown>> {
  const on = (upstream: { fake: { url: string }; key: string }) => ({ base_url: upstream.fake.url, api_key: upstream.key });
  return [
    { name: 'gx-fake', plugin: 'gx', ...on(gx), models: ['gx-2.5-pro', 'gx-2.5-flash', 'gx-2.5-flash-image', 'text-embedding-004'] },
    { name: 'gp-fake', plugin: 'gp', ...on(openai), models: ['gp-5.4', 'gp-5.4-mini'], model_map: { 'gp-5.4': 'gpt-5.4', 'gp-5.4-mini': 'gpt-5.4-mini' } },
    { name: 'gi-fake', plugin: 'gi', ...on(openai), models: ['gi-2'], model_map: { 'gi-2': 'gpt-image-2' } },
    { name: 'audio-fake', plugin: 'audio', ...on(openai), models: ['tts-1', 'tts-1-hd', 'stt-1'], model_map: { 'stt-1': 'whisper-1' } },
    { name: 'sr-fake', plugin: 'sr', ...on(openai), models: ['sr-2'], model_map: { 'sr-2': 'sora-2' } },
    {
      name: 'dsr-fake',
      plugin: 'dsr',
      ...on(ark),
      models: ['dsr-4-0-250828', 'dsr-4-5-251128'],
      model_map: { 'dsr-4-0-250828': 'doubao-seedream-4-0-250828', 'dsr-4-5-251128': 'doubao-seedream-4-5-251128' },
    },
    {
      name: 'dsx-fake',
      plugin: 'dsx',
      ...on(ark),
      models: ['dsx-1-0-pro-250528', 'sdx-2-0'],
      model_map: { 'dsx-1-0-pro-250528': 'doubao-seedance-1-0-pro-250528', 'sdx-2-0': 'doubao-seedance-2-0-260128' },
      // The asset library's API signs its calls with an access key pair; the Ark fake serves it too.
      options: { assets: { base_url: ark.fake.url, access_key_id: ark.accessKeyId, secret_access_key: ark.secretAccessKey } },
    },
    { name: 'qi-fake', plugin: 'qi', ...on(dashscope), models: ['qi-plus', 'qi-edit-plus'], model_map: { 'qi-plus': 'qwen-image-plus', 'qi-edit-plus': 'qwen-image-edit-plus' } },
    {
      name: 'wn-fake',
      plugin: 'wn',
      ...on(dashscope),
      models: ['wn2.5-t2v-preview', 'wn2.7-t2v-2026-04-25'],
      model_map: { 'wn2.5-t2v-preview': 'wan2.5-t2v-preview', 'wn2.7-t2v-2026-04-25': 'wan2.7-t2v-2026-04-25' },
    },
    { name: 'hx-fake', plugin: 'hx', ...on(dashscope), models: ['hx-1.0-t2v'], model_map: { 'hx-1.0-t2v': 'happyhorse-1.0-t2v' } },
    {
      name: 'vo-fake',
      plugin: 'vo',
      ...on(veo),
      models: ['vo-3.0-fast-generate-001'],
      model_map: { 'vo-3.0-fast-generate-001': 'veo-3.0-fast-generate-001' },
    },
  ];
}

/** The demo's config file: memory store, the demo user, and a channel per family on the fakes. */
export function demoConfig(options: DemoConfigOptions): string {
  const config = {
    server: { host: options.host, port: options.port },
    storage: { driver: 'memory', data_dir: options.directory },
    security: { encryption_key: randomBytes(32).toString('hex') },
    users: [{ id: demoUserId, username: 'demo', login_token: options.loginToken, role: 'admin' }],
    groups: { default: { ratio: 1 } },
    providers: demoChannels(options.upstreams),
  };
  return `# Written by npm run demo; deleted when the demo stops.\n${stringify(config)}`;
}
