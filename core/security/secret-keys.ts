import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The keys derived from the operator's one secret. */
export interface SecretKeys {
  /** AES-256-GCM key for API keys at rest. */
  encryption: Buffer;
  /** HMAC-SHA256 key for looking API keys up without storing them in clear. */
  lookup: Buffer;
  /** AES-256-GCM key for the cookie that carries a console sign-in in progress (plugins/sign-in/). */
  signInFlow: Buffer;
}

/** Derives independent keys, one per purpose, from one secret with HKDF-SHA256. */
export function deriveSecretKeys(secret: string): SecretKeys {
  const derive = (purpose: string) =>
    Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('model-gateway'), Buffer.from(purpose), 32));
  return { encryption: derive('api-key-encryption'), lookup: derive('api-key-lookup'), signInFlow: derive('sign-in-flow') };
}

/**
 * The secret {@link loadOrCreateSecret} would use, without creating one: the configured secret,
 * else the one kept in `<dataDirectory>/encryption.key`; undefined when there is neither.
 */
export function loadSecret(configured: string, dataDirectory: string): string | undefined {
  if (configured !== '') return configured;
  const file = join(resolve(dataDirectory), 'encryption.key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

/**
 * The configured secret, or, when none is configured, the one kept in `<dataDirectory>/encryption.key`,
 * generated (mode 0600) on first start. Losing that file makes stored API keys unreadable.
 */
export function loadOrCreateSecret(configured: string, dataDirectory: string): { secret: string; generatedFile?: string } {
  const existing = loadSecret(configured, dataDirectory);
  if (existing !== undefined) return { secret: existing };
  const directory = resolve(dataDirectory);
  const file = join(directory, 'encryption.key');
  mkdirSync(directory, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { secret, generatedFile: file };
}
