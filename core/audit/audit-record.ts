/**
 * Every change the audit trail records, as `<target>.<change>`: tokens and users through the
 * management API (and the console, which uses it), channels through the channel API, the
 * config through a reload (a signal, the CLI or `POST /api/config/reload`).
 */
export const auditActions = [
  'token.create',
  'token.update',
  'token.delete',
  'user.create',
  'user.update',
  'user.delete',
  'channel.create',
  'channel.update',
  'channel.delete',
  'channel.enable',
  'channel.disable',
  'config.reload',
] as const;
export type AuditAction = (typeof auditActions)[number];

/**
 * Who made a change: the user whose login token signed the request in, and the address it came
 * from (`request.ip`, so behind a proxy in `server.trust_proxy` the client's own). A change the
 * gateway makes on its own (a reload on SIGHUP) has user 0, no username and no address.
 */
export interface AuditActor {
  user_id: number;
  username: string;
  ip: string;
  /** How the change arrived: `api` (the management API, the console's too), `signal` (SIGHUP), `cli`. */
  source: string;
  /** The request's id (its `x-request-id`), to find its log line; empty without a request. */
  request_id: string;
}

/** What changed: the action, what it changed, and that target's state before and after (null when it did not exist). */
export interface AuditChange {
  action: AuditAction;
  /** The token's or user's id, the channel's name, the config file; and a name to show (a token's name, a username). */
  target: { id: string | number; name: string };
  before: unknown;
  after: unknown;
}

/** One change on record, as `GET /api/audit` answers it: secrets in `before` and `after` are masked. */
export interface AuditRecord extends AuditActor {
  /** Unique in the store, growing with each record written. */
  id: number;
  /** Unix seconds: when the change was made. */
  created_at: number;
  action: AuditAction;
  target_id: string;
  target_name: string;
  /** JSON; null when the target did not exist before (a creation). */
  before: unknown;
  /** JSON; null when the target is gone after (a deletion). */
  after: unknown;
}

/** A record before the store gives it its id. */
export type NewAuditRecord = Omit<AuditRecord, 'id'>;

/** Every field of a record, in the order a record lists them (the columns of the SQL tables); `created_at` first after `id`, which the Redis driver relies on. */
export const auditRecordFields = [
  'id',
  'created_at',
  'action',
  'user_id',
  'username',
  'ip',
  'source',
  'request_id',
  'target_id',
  'target_name',
  'before',
  'after',
] as const satisfies ReadonlyArray<keyof AuditRecord>;
