// tsyringe needs the Reflect metadata polyfill loaded before it; every module that uses
// tsyringe imports it from here, so the order holds whatever the entry point is.
import 'reflect-metadata';

export { container, inject, injectable, Lifecycle } from 'tsyringe';
export type { DependencyContainer, InjectionToken } from 'tsyringe';
