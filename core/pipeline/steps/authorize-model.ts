import { forbidden } from '../../errors/error-codes.js';
import type { TokenView } from '../../tokens/token-record.js';
import { quoted } from '../../errors/client-text.js';

/** The part of a token its model limits are read from. */
type ModelLimits = Pick<TokenView, 'model_limits_enabled' | 'model_limits'>;

/** True when the token may call `model` (an alias: or the model it stands for, `resolved`); the one rule of {@link authorizeModel}, for listings and fallbacks. */
export function modelAllowed(token: ModelLimits, model: string, resolved = model): boolean {
  return !token.model_limits_enabled || token.model_limits.includes(model) || token.model_limits.includes(resolved);
}

/**
 * Refuses (403) a model outside the token's `model_limits` when the limits are enabled. A
 * request for an alias is allowed when the limits name the alias or the model it stands for
 * (`resolved`); a request for the model itself only when they name the model.
 */
export function authorizeModel(token: ModelLimits, model: string, resolved = model): void {
  if (modelAllowed(token, model, resolved)) return;
  if (token.model_limits.length === 0) throw forbidden('this API key may not use any model; add models to the token\'s model_limits', 'model_not_allowed');
  throw forbidden(`this API key may not use model ${quoted(model)}; add it to the token's model_limits`, 'model_not_allowed');
}
