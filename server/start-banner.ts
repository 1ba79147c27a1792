import { resolve } from 'node:path';
import { defaultPostgresSchema, type GatewayConfig } from '../core/config/config-schema.js';
import { redactSecrets } from '../core/security/key-shapes.js';

/** What the start found out that the config alone does not say. */
export interface StartFacts {
  /** The address the server listens on, e.g. `http://127.0.0.1:8080`. */
  address: string;
  /** The 0600 file holding the first admin's login token, when this start created that user. */
  generatedTokenFile?: string;
}

/** Where the storage driver keeps its data, for a person: a file, or a server without its password. */
function storagePlace(storage: GatewayConfig['storage']): string {
  if (storage.driver === 'sqlite') return resolve(storage.path ?? `${storage.data_dir}/gateway.sqlite`);
  if (storage.driver === 'memory') return 'in memory: nothing survives a restart';
  const url = storage.url === undefined || !URL.canParse(storage.url) ? '' : new URL(storage.url);
  if (url === '') return '';
  url.password = url.password === '' ? '' : '***';
  const place = redactSecrets(url.href);
  return storage.driver === 'postgres' ? `${place}, schema ${storage.schema ?? defaultPostgresSchema}` : place;
}

/**
 * The few lines `model-gateway start` prints on a terminal once it listens, so a person sees
 * at once where to send requests, where the data lives, what it serves, and how to sign in.
 * Only for a terminal: a service manager or a container gets the JSON log lines alone.
 */
export function startBanner(config: GatewayConfig, facts: StartFacts): string {
  const lines = [`Model Gateway listening on ${facts.address}`, `  storage   ${config.storage.driver}, ${storagePlace(config.storage)}`];
  if (config.providers.length === 0) {
    lines.push('  channels  none: add a channel under providers: in the config (config/gateway.yaml shows one per family)');
  } else {
    const families = [...new Set(config.providers.map((channel) => channel.plugin))];
    lines.push(`  channels  ${config.providers.length} (${config.providers.map((channel) => channel.name).join(', ')}); families ${families.join(', ')}`);
  }
  if (facts.generatedTokenFile !== undefined) {
    lines.push(`  sign in   the first admin's login token was written to ${resolve(facts.generatedTokenFile)} (mode 0600)`);
  } else {
    const configured = config.users.filter((user) => user.login_token !== '').length;
    lines.push(`  sign in   ${configured > 0 ? `with a login token of the ${configured} user(s) in the config` : 'with the login token of a user in the store (model-gateway users create <name> makes one)'}`);
  }
  lines.push(`  try       curl ${facts.address}/healthz`);
  return `${lines.join('\n')}\n`;
}
