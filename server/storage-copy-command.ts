import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultPostgresSchema, type GatewayConfig } from '../core/config/config-schema.js';
import { loadConfigFile } from '../core/config/load-config.js';
import { copyStore, TargetNotEmptyError, type CopiedCounts } from '../core/store/copy-store.js';
import { createStoreBackend } from '../core/store/create-store-backend.js';
import type { StoreBackend } from '../core/store/store-backend.js';
import { loadSecret } from '../core/security/secret-keys.js';

type Storage = GatewayConfig['storage'];

/** A refusal of `storage copy`: nothing was written, and the message says what to change. */
export class StorageCopyRefusal extends Error {}

/** The SQLite file a storage section names, as an absolute path (through links when it exists). */
function sqliteFile(storage: Storage): string {
  const file = resolve(storage.path ?? `${storage.data_dir}/gateway.sqlite`);
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** A server URL without its credentials, and with its defaults spelled out, to compare and to print. */
function serverOf(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** The store a storage section names, for messages: never a password. */
function describeStorage(storage: Storage): string {
  switch (storage.driver) {
    case 'memory':
      return 'memory';
    case 'sqlite':
      return `sqlite ${sqliteFile(storage)}`;
    case 'redis':
      return `redis ${serverOf(storage.url as string)} under the key prefix "${storage.key_prefix}"`;
    case 'postgres':
      return `postgres ${serverOf(storage.url as string)} in the schema "${storage.schema ?? defaultPostgresSchema}"`;
  }
}

/** True when the two sections name the same store, or stores that overlap (one Redis key prefix inside the other). */
function sameStore(from: Storage, to: Storage): boolean {
  if (from.driver !== to.driver) return false;
  switch (from.driver) {
    case 'memory':
      return false;
    case 'sqlite':
      return sqliteFile(from) === sqliteFile(to);
    case 'redis':
      return serverOf(from.url as string) === serverOf(to.url as string) && (from.key_prefix.startsWith(to.key_prefix) || to.key_prefix.startsWith(from.key_prefix));
    case 'postgres':
      return serverOf(from.url as string) === serverOf(to.url as string) && (from.schema ?? defaultPostgresSchema) === (to.schema ?? defaultPostgresSchema);
  }
}

/** Checks what can be checked before either store is opened; throws a {@link StorageCopyRefusal}. */
function refuseUnfitConfigs(from: { file: string; config: GatewayConfig }, to: { file: string; config: GatewayConfig }): void {
  for (const [side, { file, config }] of [['--from', from], ['--to', to]] as const) {
    if (config.storage.driver === 'memory') {
      throw new StorageCopyRefusal(`${side} ${file}: the memory driver keeps nothing outside a running gateway, so there is nothing to copy from or to; name a sqlite, redis or postgres store`);
    }
  }
  // Opening creates a SQLite file that is missing: a mistyped source path would copy nothing.
  if (from.config.storage.driver === 'sqlite' && !existsSync(sqliteFile(from.config.storage))) {
    throw new StorageCopyRefusal(`--from ${from.file}: the SQLite file ${sqliteFile(from.config.storage)} does not exist; check storage.path`);
  }
  if (sameStore(from.config.storage, to.config.storage)) {
    throw new StorageCopyRefusal(`--from and --to name the same store (${describeStorage(from.config.storage)}); the target must be another one`);
  }
  // Stored API keys are sealed with the source's key: under another, none would open.
  const sourceSecret = loadSecret(from.config.security.encryption_key, from.config.storage.data_dir);
  const targetSecret = loadSecret(to.config.security.encryption_key, to.config.storage.data_dir);
  if (sourceSecret !== undefined && sourceSecret !== targetSecret) {
    const sourceKeyFile = join(resolve(from.config.storage.data_dir), 'encryption.key');
    // The key itself is never printed: the message says where it is and how to hand it over.
    const fix =
      from.config.security.encryption_key === ''
        ? `the source's key was generated into ${sourceKeyFile}; set it in ${to.file} through the environment, e.g. ` +
          `security: { encryption_key: \${GATEWAY_ENCRYPTION_KEY} } (as the shipped config does) and export GATEWAY_ENCRYPTION_KEY="$(cat ${sourceKeyFile})" for the copy and for every gateway on the target`
        : `set the same security.encryption_key in ${to.file} as in ${from.file}`;
    throw new StorageCopyRefusal(
      `${to.file} does not have the encryption key of ${from.file} (security.encryption_key, or <data_dir>/encryption.key when it is empty): ` +
        `the copied API keys are sealed with it and would not open; ${fix}`,
    );
  }
}

/**
 * Refuses a PostgreSQL store that gateways are connected to: they would write on while the
 * copy reads, and what they wrote after it would be lost. SQLite and Redis do not tell which
 * clients are gateways; there the operator's word that they are stopped must do.
 */
async function refuseRunningGateways(side: 'source' | 'target', storage: Storage): Promise<void> {
  if (storage.driver !== 'postgres') return;
  const { countGatewayConnections } = await import('../core/store/postgres-store-backend.js');
  let connections: number;
  try {
    connections = await countGatewayConnections(storage.url as string, storage.schema);
  } catch (error) {
    throw new Error(`the ${side} store (${describeStorage(storage)}) did not answer: ${(error as Error).message}`, { cause: error });
  }
  if (connections > 0) {
    throw new StorageCopyRefusal(
      `gateways are running on the ${side} store (${describeStorage(storage)}): ${connections} connection${connections === 1 ? '' : 's'} named model-gateway/${storage.schema ?? defaultPostgresSchema} in pg_stat_activity; stop them before copying`,
    );
  }
}

/** Opens one side's store; a failure says which side it was. */
async function open(side: 'source' | 'target', storage: Storage): Promise<StoreBackend> {
  try {
    return await createStoreBackend(storage);
  } catch (error) {
    throw new Error(`the ${side} store (${describeStorage(storage)}) did not open: ${(error as Error).message}`, { cause: error });
  }
}

/** How the copy's counts read to the operator. */
function formatCounts(counts: CopiedCounts): string {
  const expired = counts.expiredRecords === 0 ? '' : ` (${counts.expiredRecords} expired records left behind)`;
  return (
    `  records:  ${counts.records}${expired}\n` +
    `  sets:     ${counts.sets} (${counts.setMembers} members)\n` +
    `  counters: ${counts.counters}\n` +
    `  windows:  ${counts.windows}\n` +
    `  balances: ${counts.balances}\n` +
    `  holds:    ${counts.holds}\n` +
    `  budgets:  ${counts.budgetWindows} windows of budget periods\n` +
    `  usage:    ${counts.usageRecords} records of the usage log\n` +
    `  audit:    ${counts.auditRecords} records of the audit trail\n`
  );
}

/**
 * `model-gateway storage copy --from <config> --to <config>`: copies everything durable from
 * the store of one config into the empty store of another, with every gateway on either
 * store stopped. Returns what to print; throws a {@link StorageCopyRefusal} when it refuses.
 */
export async function copyStorage(fromFile: string, toFile: string): Promise<string> {
  const from = { file: fromFile, config: loadConfigFile(fromFile).config };
  const to = { file: toFile, config: loadConfigFile(toFile).config };
  refuseUnfitConfigs(from, to);
  await refuseRunningGateways('source', from.config.storage);
  await refuseRunningGateways('target', to.config.storage);
  const source = await open('source', from.config.storage);
  let target: StoreBackend | undefined;
  try {
    target = await open('target', to.config.storage);
    let counts: CopiedCounts;
    try {
      counts = await copyStore(source, target);
    } catch (error) {
      if (error instanceof TargetNotEmptyError) {
        throw new StorageCopyRefusal(
          `the target ${describeStorage(to.config.storage)} already holds data, and a copy never merges into a store: ` +
            'point --to at a new store (another file, key prefix or schema), or empty this one yourself first',
        );
      }
      const partly = target.driver === 'redis' ? '; the target may hold part of the copy: empty it before running the copy again' : '; nothing was written to the target';
      throw new Error(`copying ${describeStorage(from.config.storage)} to ${describeStorage(to.config.storage)} failed: ${(error as Error).message}${partly}`, { cause: error });
    }
    return `copied ${describeStorage(from.config.storage)} to ${describeStorage(to.config.storage)}:\n${formatCounts(counts)}`;
  } finally {
    await Promise.allSettled([source.close(), target?.close()]);
  }
}
