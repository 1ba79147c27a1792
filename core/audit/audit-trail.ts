import type { FastifyBaseLogger } from 'fastify';
import type { GatewayConfig } from '../config/config-schema.js';
import { inject } from '../di/dependency-injection.js';
import { InjectionTokens, type Clock } from '../di/injection-tokens.js';
import { RetentionRounds } from '../store/retention-rounds.js';
import type { StoreBackend } from '../store/store-backend.js';
import type { AuditFilter, AuditLogStore, AuditPage } from './audit-log-store.js';
import type { AuditActor, AuditChange, AuditRecord } from './audit-record.js';
import { maskAuditValue } from './mask-audit-value.js';

/** Who the gateway is when it changes something on its own: a reload on SIGHUP (`signal`), one the CLI asked for (`cli`). */
export function gatewayActor(source: string): AuditActor {
  return { user_id: 0, username: '', ip: '', source, request_id: '' };
}

/**
 * The audit trail: one record per change to tokens, users, channels or the config, with who
 * made it, when, from where, and the target before and after, its secrets masked
 * ({@link maskAuditValue}). Unlike the usage log's, a write is not deferred: {@link record}
 * resolves once the record is stored, so a change is answered as done only with its record
 * written (admin changes are few). Records older than `audit.retention_days` are removed in
 * the background ({@link RetentionRounds}).
 */
export class AuditTrail {
  /** The store's trail, which the audit API reads. */
  readonly store: AuditLogStore;
  readonly #clock: Clock;
  readonly #retention: RetentionRounds;

  constructor(
    @inject(InjectionTokens.storeBackend) backend: StoreBackend,
    @inject(InjectionTokens.config) config: GatewayConfig,
    @inject(InjectionTokens.logger) logger: FastifyBaseLogger,
    @inject(InjectionTokens.clock) clock: Clock,
  ) {
    this.store = backend.auditLog();
    this.#clock = clock;
    this.#retention = new RetentionRounds({
      records: 'audit records',
      retentionDays: config.audit.retention_days,
      removeBefore: (createdBefore, limit) => this.store.removeBefore(createdBefore, limit),
      nowSeconds: () => Math.floor(this.#clock.now() / 1000),
      logger,
    });
  }

  /**
   * Writes the record of `change`, made by `actor` (for a request, `auditActorOf(request)` of
   * plugins/management/audit-actor.ts; for the gateway itself, {@link gatewayActor}); resolves
   * with it once it is stored. `before` and `after` are masked here: callers pass the target
   * as it is. A store that refuses rejects (a 503 on a request).
   */
  async record(change: AuditChange, actor: AuditActor): Promise<AuditRecord> {
    return this.store.append({
      created_at: Math.floor(this.#clock.now() / 1000),
      action: change.action,
      user_id: actor.user_id,
      username: actor.username,
      ip: actor.ip,
      source: actor.source,
      request_id: actor.request_id,
      target_id: String(change.target.id),
      target_name: change.target.name,
      before: maskAuditValue(change.before ?? null),
      after: maskAuditValue(change.after ?? null),
    });
  }

  /** The records `filter` matches, newest first, page `page` (from 1) of `size`. */
  page(filter: AuditFilter, page: number, size: number): Promise<AuditPage> {
    return this.store.page(filter, (page - 1) * size, size);
  }

  /** A reload's `audit.retention_days`: the next retention round removes what is older than it. */
  setRetentionDays(days: number): void {
    this.#retention.setRetentionDays(days);
  }

  /** One retention round: removes the records older than `audit.retention_days`; resolves with how many went. */
  removeExpired(): Promise<number> {
    return this.#retention.removeExpired();
  }

  /** Stops the retention rounds. */
  close(): Promise<void> {
    return this.#retention.close();
  }
}
