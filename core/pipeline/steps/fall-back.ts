import { priceOfModel } from '../../billing/pricing.js';
import { quoted } from '../../errors/client-text.js';
import { GatewayError } from '../../errors/gateway-error.js';
import type { PipelineServices } from '../pipeline-services.js';
import type { RequestContext } from '../request-context.js';
import { authorizeModel, modelAllowed } from './authorize-model.js';
import { isFallbackRefusal } from './keep-refusal.js';
import { planRoute } from './plan-route.js';

/**
 * Fallbacks: the models to try after the requested one, in order. The request's own `models`
 * list wins, each entry checked against the token's model limits (403 for one outside them, as
 * for the first); else the config's `fallbacks` for the model as requested or as resolved,
 * keeping the ones the limits allow. Each is priced now, so the reservation covers the dearest.
 */
export function planFallbacks(context: RequestContext, services: PipelineServices): void {
  const { invocation, token } = context;
  const { catalog, config } = services;
  // Own keys only: a client's model may be named `constructor` or `__proto__`.
  const configured = (model: string) => (Object.hasOwn(config.fallbacks, model) ? config.fallbacks[model] : undefined);
  const listed = invocation.models?.slice(1) ?? configured(context.requestedModel) ?? configured(context.model) ?? [];
  if (listed.length === 0) return;
  const seen = new Set([context.model]);
  const groups = catalog.groupsOf(token.group);
  for (const requested of listed) {
    const model = catalog.resolve(requested);
    if (invocation.models !== undefined) {
      authorizeModel(token, requested, model);
      // A client's list names only models it can be served: a typo is its own to fix.
      if (!catalog.serves(groups, requested)) {
        throw new GatewayError(404, 'model_not_found', `models: no channel serves model ${quoted(requested)} for this API key's group (${groups.join(', ') || 'none'}); list models /v1/models names`, { param: 'models' });
      }
    } else if (!modelAllowed(token, requested, model)) continue;
    if (seen.has(model)) continue;
    seen.add(model);
    context.fallbacks.push({ requested, model, price: priceOfModel(config, requested) });
  }
}

/**
 * After every channel of the current model failed with `failure`: when it is retryable, or a
 * refusal with `fallbacks_on: [content_filter]` (see `keep-refusal.ts`), and the client still
 * waits, moves the request to the next fallback model that has a channel to try,
 * priced at that model's price, and answers true; false when there is none left. The client's
 * request is translated afresh for it, so a model of another family is reached through a translator.
 */
export async function fallBack(context: RequestContext, services: PipelineServices, failure: GatewayError): Promise<boolean> {
  if (!(failure.retryable || isFallbackRefusal(failure, services)) || context.invocation.clientSignal.aborted) return false;
  for (let next = context.fallbacks.shift(); next !== undefined; next = context.fallbacks.shift()) {
    context.model = next.model;
    context.price = next.price;
    context.translations = undefined;
    try {
      await planRoute(context, services);
    } catch (error) {
      // No channel of this one in the token's groups, or all cooling down: the next, if any.
      if (GatewayError.is(error)) continue;
      throw error;
    }
    if (context.firstAttempt !== undefined) {
      context.failure = undefined;
      return true;
    }
  }
  return false;
}
