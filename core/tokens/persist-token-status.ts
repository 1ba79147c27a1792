import type { StoreBackend } from '../store/store-backend.js';
import { recordOf, TokenStatus, type TokenView } from './token-record.js';
import type { TokenRepository } from './token-repository.js';
import { tokenInvalidationChannel } from './token-invalidation.js';

/**
 * Stores status 3 (expired) or 4 (exhausted) on a token that is still enabled, and announces
 * the change so every process drops its cached copy. Reads the token afresh first: a token
 * an operator has disabled, deleted or already marked is left alone, and so is one for which
 * `stillApplies` no longer holds (for example, a quota raised in the meantime). Returns true
 * when it stored the status.
 */
export async function persistTokenStatus(
  tokens: TokenRepository,
  backend: StoreBackend,
  tokenId: number,
  status: typeof TokenStatus.expired | typeof TokenStatus.exhausted,
  stillApplies: (current: TokenView) => boolean = () => true,
): Promise<boolean> {
  const current = await tokens.get(tokenId);
  if (current === undefined || current.status !== TokenStatus.enabled || !stillApplies(current)) return false;
  await tokens.update({ ...recordOf(current), status });
  await backend.publish(tokenInvalidationChannel, String(tokenId));
  return true;
}

/**
 * Puts a token stored with status `from` (4, exhausted) back to enabled when `stillApplies`
 * holds on a fresh read (its quota came back), and announces the change. A token an operator
 * has set otherwise meanwhile is left alone. Returns true when it stored the status.
 */
export async function restoreTokenStatus(
  tokens: TokenRepository,
  backend: StoreBackend,
  tokenId: number,
  from: typeof TokenStatus.exhausted,
  stillApplies: (current: TokenView) => boolean,
): Promise<boolean> {
  const current = await tokens.get(tokenId);
  if (current === undefined || current.status !== from || !stillApplies(current)) return false;
  await tokens.update({ ...recordOf(current), status: TokenStatus.enabled });
  await backend.publish(tokenInvalidationChannel, String(tokenId));
  return true;
}
