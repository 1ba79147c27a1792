import type { StoreEntry } from './store-backend.js';

/**
 * When a record expires, in milliseconds since the epoch, read from keyv's serialization of it
 * (`{ "value": …, "expires": … }`); undefined for a record that does not expire.
 */
export function recordExpiry(entry: Extract<StoreEntry, { kind: 'record' }>): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(entry.value);
  } catch {
    throw new Error(`the record ${JSON.stringify(entry.key)} is not keyv's serialization (not JSON)`);
  }
  const expires = typeof parsed === 'object' && parsed !== null ? (parsed as { expires?: unknown }).expires : undefined;
  return typeof expires === 'number' ? expires : undefined;
}

/**
 * Splits keyv's namespaced key `<namespace>:<key>` into its namespace and key, for a driver
 * that keeps them apart (Redis). A key may hold ':' and so may a namespace, so the split
 * follows how namespaces are named: the gateway's own have no ':', and a plugin's is
 * `plugin:<plugin>:<namespace>`, whose parts have none either (the provider host refuses a
 * namespace with ':'). So the namespace ends at the first ':', or the third for `plugin:`.
 */
export function splitRecordKey(namespacedKey: string): { namespace: string; key: string } {
  const colons = namespacedKey.startsWith('plugin:') ? 3 : 1;
  let end = -1;
  for (let seen = 0; seen < colons; seen += 1) {
    end = namespacedKey.indexOf(':', end + 1);
    if (end === -1) throw new Error(`the record key ${JSON.stringify(namespacedKey)} names no namespace (expected "<namespace>:<key>")`);
  }
  return { namespace: namespacedKey.slice(0, end), key: namespacedKey.slice(end + 1) };
}
