import { unavailable } from '../errors/error-codes.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { StoreBackend } from './store-backend.js';

const storageUnavailable = (cause: unknown) =>
  GatewayError.is(cause) ? cause : unavailable('storage is unavailable; try again shortly', cause);

/** Wraps every method of `target` so a rejected call rejects with a 503 gateway error instead. */
function guardMethods<Target extends object>(target: Target, wrapResult: (name: PropertyKey, value: unknown) => unknown): Target {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value = Reflect.get(object, property, receiver);
      if (typeof value !== 'function') return value;
      return (...parameters: unknown[]) => {
        let result: unknown;
        try {
          result = (value as (...values: unknown[]) => unknown).apply(object, parameters);
        } catch (error) {
          throw storageUnavailable(error);
        }
        if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(storageUnavailable(error)));
        return wrapResult(property, result);
      };
    },
  });
}

/**
 * The backend as the request path uses it: any storage failure (Redis down, SQLite busy or
 * closed) becomes a 503 `service_unavailable` in the route's dialect, never a 500, and the
 * cause is kept for the log. Keyv instances, the usage log and the audit trail it hands out are guarded the same way.
 */
export function guardStoreBackend(backend: StoreBackend): StoreBackend {
  const guardedParts = new WeakMap<object, object>();
  return guardMethods(backend, (property, result) => {
    if ((property !== 'keyv' && property !== 'usageLog' && property !== 'auditLog') || result === null || typeof result !== 'object') return result;
    let guarded = guardedParts.get(result);
    if (guarded === undefined) guardedParts.set(result, (guarded = guardMethods(result, (_name, value) => value)));
    return guarded;
  });
}
