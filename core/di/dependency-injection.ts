// tsyringe needs the Reflect metadata polyfill loaded before it; every module that uses
// tsyringe imports it from here, so the order holds whatever the entry point is.
import 'reflect-metadata';
import { inject as tsyringeInject, injectable as tsyringeInjectable, type InjectionToken } from 'tsyringe';

export { container, Lifecycle } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';

/** A class the container can build. */
export type ServiceClass = new (...args: never[]) => unknown;

/** The constructor parameters given a token by {@link inject}, per class. */
const injectedParameters = new WeakMap<object, Set<number>>();

/**
 * tsyringe's parameter decorator: the container passes what `token` resolves to. Every
 * constructor parameter of a class the container builds needs one (see {@link injectable}).
 */
export function inject(token: InjectionToken<unknown>): ParameterDecorator {
  const decorate = tsyringeInject(token);
  return (target, propertyKey, parameterIndex) => {
    if (propertyKey === undefined) {
      const indices = injectedParameters.get(target) ?? new Set<number>();
      indices.add(parameterIndex);
      injectedParameters.set(target, indices);
    }
    decorate(target, propertyKey, parameterIndex);
  };
}

/**
 * Lets the container build `service` (tsyringe's `injectable()`) and returns it; the
 * composition root applies it where it registers the class.
 *
 * Every constructor parameter must have an {@link inject} token, or this throws: the build
 * (esbuild) and the tests' loader (tsx) emit no `design:paramtypes` metadata, so tsyringe
 * cannot infer a parameter from its type and would pass `undefined`. It is a call rather
 * than a class decorator because esbuild compiles the `#private` fields of a class with a
 * class decorator into WeakMap lookups, slower on the request path than native fields.
 */
export function injectable<Service extends ServiceClass>(service: Service): Service {
  const injected = injectedParameters.get(service) ?? new Set<number>();
  for (let index = 0; index < service.length; index += 1) {
    if (!injected.has(index)) {
      throw new TypeError(`${service.name}: constructor parameter ${index + 1} has no @inject(token); the build emits no type metadata to resolve it by`);
    }
  }
  tsyringeInjectable()(service as never);
  return service;
}
