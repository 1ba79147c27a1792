import { scrubSecrets, secretOptionName } from '../security/secret-values.js';
import { maskKey } from '../tokens/mask-key.js';

/** What a credential shorter than a key becomes: as many asterisks whatever its length, so not even that is told. */
const hidden = '**********';
/** A credential at least this long keeps its first and last 4 characters ({@link maskKey}), enough to tell two keys apart. */
const shortestShownKey = 32;

/** A credential's value as the audit trail keeps it; one already masked (a token object's `key`) stays as it is. */
function maskCredential(value: string): string {
  if (value === '' || value.includes(hidden)) return value;
  return value.length >= shortestShownKey ? maskKey(value) : hidden;
}

/** Any other text: without the operator's secrets or anything shaped like a key, and a URL without its password. */
function scrubText(value: string): string {
  if (value.includes('://') && URL.canParse(value)) {
    const url = new URL(value);
    if (url.password !== '') {
      url.password = hidden;
      return scrubSecrets(url.toString());
    }
  }
  return scrubSecrets(value);
}

/**
 * A copy of `value` (a JSON value: a token, a user, a channel, a config) fit for the audit
 * trail: every string under a field named like a credential (see {@link secretOptionName}), at
 * any depth, is masked, and every other string loses what {@link scrubSecrets} hides and a
 * URL's password. Numbers, booleans and names stay, so before and after still show what changed.
 */
export function maskAuditValue(value: unknown, underCredential = false): unknown {
  if (typeof value === 'string') return underCredential ? maskCredential(value) : scrubText(value);
  if (Array.isArray(value)) return value.map((item) => maskAuditValue(item, underCredential));
  if (typeof value === 'object' && value !== null) {
    const masked: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(value)) {
      if (item !== undefined) masked[name] = maskAuditValue(item, underCredential || secretOptionName.test(name));
    }
    return masked;
  }
  return value === undefined ? null : value;
}
