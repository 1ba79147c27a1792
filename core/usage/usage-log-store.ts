import type { NewUsageRecord, UsageRecord, UsageType } from './usage-record.js';

/**
 * Which records a query reads: every field given must match exactly, `start_timestamp` and
 * `end_timestamp` bound `created_at` (Unix seconds, both inclusive). `user_id` is always set
 * on a user's own queries; an admin may leave it out.
 */
export interface UsageFilter {
  user_id?: number;
  start_timestamp?: number;
  end_timestamp?: number;
  type?: UsageType;
  model_name?: string;
  token_name?: string;
  request_id?: string;
  status?: number;
}

/** One page of records, newest first, and how many match in all. */
export interface UsagePage {
  items: UsageRecord[];
  total: number;
}

/** Totals over the records a filter matches. */
export interface UsageStat {
  quota: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** Totals of one model on one day (UTC), for charts. */
export interface UsageDay {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  model_name: string;
  requests: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/**
 * Where a driver keeps the usage log: a table on SQLite and PostgreSQL, capped streams on
 * Redis, a bounded list in memory. "Newest first" is by `created_at`, then `id`; the
 * in-process drivers (memory, Redis) keep records in the order they were written, which is the
 * same order as long as records are written as their requests end.
 */
export interface UsageLogStore {
  /** Writes `records` as one batch, each given the next id; resolves once they are stored. */
  append(records: readonly NewUsageRecord[]): Promise<void>;
  /** The records `filter` matches, newest first, skipping `offset` and returning at most `limit`. */
  page(filter: UsageFilter, offset: number, limit: number): Promise<UsagePage>;
  stat(filter: UsageFilter): Promise<UsageStat>;
  /** Totals per day and model, by day then model name, both ascending. */
  daily(filter: UsageFilter): Promise<UsageDay[]>;
  /** Every record `filter` matches, newest first, read a page at a time (never all at once). */
  scan(filter: UsageFilter): AsyncIterable<UsageRecord>;
  /**
   * Removes at most `limit` of the oldest records created before `createdBefore` (Unix seconds)
   * and returns how many it removed. Safe to run from several processes at once.
   */
  removeBefore(createdBefore: number, limit: number): Promise<number>;
}

/** How many records a driver reads per statement or command when it scans. */
export const usageScanPageSize = 500;
