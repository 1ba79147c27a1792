/**
 * The public entry of Model Gateway's core: what a provider plugin may import. Providers
 * import nothing else from the gateway. The provider contract and its host helpers join
 * this entry with the request pipeline.
 */
export { GatewayError, type GatewayErrorOptions } from './errors/gateway-error.js';
export { forbidden, insufficientQuota, invalidRequest, notFound, rateLimited, unauthorized, unavailable } from './errors/error-codes.js';
export { matchesModelPattern } from './routing/model-pattern.js';
