import type { InjectionToken } from './dependency-injection.js';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import type { KeyCipher } from '../security/key-cipher.js';
import type { StoreBackend } from '../store/store-backend.js';
import type { TokenRepository } from '../tokens/token-repository.js';
import type { UserRepository } from '../users/user-repository.js';

/** The time source; tests move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Typed keys of the per-app container. Classes register under themselves; these name the rest. */
export const InjectionTokens = {
  config: Symbol('config') as InjectionToken<GatewayConfig>,
  configFile: Symbol('configFile') as InjectionToken<string>,
  logger: Symbol('logger') as InjectionToken<FastifyBaseLogger>,
  clock: Symbol('clock') as InjectionToken<Clock>,
  storeBackend: Symbol('storeBackend') as InjectionToken<StoreBackend>,
  keyCipher: Symbol('keyCipher') as InjectionToken<KeyCipher>,
  /** The key that seals a console sign-in's flow cookie (see `SecretKeys.signInFlow`). */
  signInFlowKey: Symbol('signInFlowKey') as InjectionToken<Buffer>,
  tokenRepository: Symbol('tokenRepository') as InjectionToken<TokenRepository>,
  userRepository: Symbol('userRepository') as InjectionToken<UserRepository>,
} as const;

/** The clock of the real world. */
export const systemClock: Clock = { now: () => Date.now() };
