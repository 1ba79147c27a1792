import type { StoreBackend, StoreEntry } from './store-backend.js';
import { recordExpiry } from './store-entries.js';

/** What {@link copyStore} copied, by kind. */
export interface CopiedCounts {
  records: number;
  /** Records that had expired by the time they were read, and were left behind. */
  expiredRecords: number;
  sets: number;
  setMembers: number;
  counters: number;
  windows: number;
  balances: number;
  /** Reservations' holds, with their leases (and video tasks' holds). */
  holds: number;
  /** Budget windows whose period has not ended. */
  budgetWindows: number;
  /** Records of the usage log. */
  usageRecords: number;
  /** Records of the audit trail. */
  auditRecords: number;
}

/** Why a copy did not start: the target already holds data. */
export class TargetNotEmptyError extends Error {}

/** True when the backend holds anything durable: a record, a set, a counter, a window, a balance, a hold, a usage or an audit record. */
export async function holdsData(backend: StoreBackend): Promise<boolean> {
  for await (const _entry of backend.exportEntries()) return true;
  return false;
}

/**
 * Copies everything durable from `source` into `target` (see {@link StoreEntry}), streaming
 * the source's export into the target's import, and counts what it copied. The target must
 * hold nothing: copying into a store that has data would merge two stores' users, tokens and
 * id sequences, which no operator means; it is refused before anything is written.
 */
export async function copyStore(source: StoreBackend, target: StoreBackend): Promise<CopiedCounts> {
  if (await holdsData(target)) throw new TargetNotEmptyError('the target store already holds data');
  const counts: CopiedCounts = { records: 0, expiredRecords: 0, sets: 0, setMembers: 0, counters: 0, windows: 0, balances: 0, holds: 0, budgetWindows: 0, usageRecords: 0, auditRecords: 0 };
  async function* counted(): AsyncGenerator<StoreEntry> {
    for await (const entry of source.exportEntries()) {
      switch (entry.kind) {
        case 'record': {
          const expires = recordExpiry(entry);
          if (expires !== undefined && expires <= Date.now()) {
            counts.expiredRecords += 1;
            continue;
          }
          counts.records += 1;
          break;
        }
        case 'set':
          counts.sets += 1;
          counts.setMembers += entry.members.length;
          break;
        case 'counter':
          counts.counters += 1;
          break;
        case 'window':
          counts.windows += 1;
          break;
        case 'balance':
          counts.balances += 1;
          break;
        case 'hold':
          counts.holds += 1;
          break;
        case 'budget':
          counts.budgetWindows += 1;
          break;
        case 'usage':
          counts.usageRecords += 1;
          break;
        case 'audit':
          counts.auditRecords += 1;
          break;
      }
      yield entry;
    }
  }
  await target.importEntries(counted());
  return counts;
}
