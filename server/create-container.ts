import type { FastifyBaseLogger } from 'fastify';
import { container as rootContainer, injectable, Lifecycle, type DependencyContainer } from '../core/di/dependency-injection.js';
import { QuotaLedger } from '../core/billing/quota-ledger.js';
import { BudgetPolicy } from '../core/budgets/budget-policy.js';
import type { GatewayConfig } from '../core/config/config-schema.js';
import { KeyCipher } from '../core/security/key-cipher.js';
import { deriveSecretKeys, loadOrCreateSecret } from '../core/security/secret-keys.js';
import { operatorSecrets } from '../core/security/secret-values.js';
import type { StoreBackend } from '../core/store/store-backend.js';
import { AccessTimeRecorder } from '../core/tokens/access-time-recorder.js';
import { TokenAuthenticator } from '../core/tokens/token-authenticator.js';
import { StoreTokenRepository } from '../core/tokens/store-token-repository.js';
import { TokenService } from '../core/tokens/token-service.js';
import { InFlightRequests } from '../core/pipeline/in-flight-requests.js';
import { LeaseKeeper } from '../core/store/lease-keeper.js';
import { StoreUserRepository } from '../core/users/store-user-repository.js';
import { LoginSessions } from '../core/users/login-sessions.js';
import { UserService } from '../core/users/user-service.js';
import { UsageLog } from '../core/usage/usage-log.js';
import { AuditTrail } from '../core/audit/audit-trail.js';
import { InjectionTokens, systemClock, type Clock } from '../core/di/injection-tokens.js';

/** What the composition root hands the container. */
export interface ContainerParts {
  config: GatewayConfig;
  configFile: string;
  logger: FastifyBaseLogger;
  backend: StoreBackend;
  clock?: Clock;
}

/**
 * One child container per app instance: values for what is built outside (config, logger,
 * store), container-scoped classes for the services, so two apps in one process share nothing.
 */
export function createGatewayContainer(parts: ContainerParts): { container: DependencyContainer; generatedSecretFile?: string } {
  const container = rootContainer.createChildContainer();
  const secret = loadOrCreateSecret(parts.config.security.encryption_key, parts.config.storage.data_dir);
  // A generated or stored key is as secret as a configured one.
  operatorSecrets.add([secret.secret]);
  container.register(InjectionTokens.config, { useValue: parts.config });
  container.register(InjectionTokens.configFile, { useValue: parts.configFile });
  container.register(InjectionTokens.logger, { useValue: parts.logger });
  container.register(InjectionTokens.clock, { useValue: parts.clock ?? systemClock });
  container.register(InjectionTokens.storeBackend, { useValue: parts.backend });
  const keys = deriveSecretKeys(secret.secret);
  container.register(InjectionTokens.keyCipher, { useValue: new KeyCipher(keys) });
  container.register(InjectionTokens.signInFlowKey, { useValue: keys.signInFlow });
  const scoped = { lifecycle: Lifecycle.ContainerScoped } as const;
  container.register(InjectionTokens.tokenRepository, { useClass: injectable(StoreTokenRepository) }, scoped);
  container.register(InjectionTokens.userRepository, { useClass: injectable(StoreUserRepository) }, scoped);
  for (const service of [AccessTimeRecorder, TokenAuthenticator, TokenService, LoginSessions, UserService, LeaseKeeper, BudgetPolicy, QuotaLedger, InFlightRequests, UsageLog, AuditTrail]) {
    container.register(service as never, { useClass: injectable(service) as never }, scoped);
  }
  return { container, generatedSecretFile: secret.generatedFile };
}
