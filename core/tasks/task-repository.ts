import type Keyv from 'keyv';
import type { StoreBackend } from '../store/store-backend.js';
import type { TaskRecord } from './task-record.js';

/** Set of the ids of tasks not yet settled, which the background poller walks. */
const openTasksKey = 'tasks:open';

// Records outlive their expiry by this much, so the poller can still settle a task that
// never finished before it disappears.
const settleGraceMilliseconds = 3_600_000;

/** Video task records in the store: by id, plus the set of open ones. */
export class TaskRepository {
  readonly #records: Keyv<TaskRecord>;

  constructor(private readonly backend: StoreBackend) {
    this.#records = backend.keyv<TaskRecord>('tasks');
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    return (await this.#records.get(id)) ?? undefined;
  }

  /** Stores a record (kept until its expiry plus a grace period), and tracks it as open until it is settled. */
  async save(record: TaskRecord, now: number): Promise<void> {
    await this.#records.set(record.id, record, Math.max(1000, record.expires_at - now + settleGraceMilliseconds));
    if (record.settled) await this.backend.removeFromSet(openTasksKey, [record.id]);
    else await this.backend.addToSet(openTasksKey, [record.id]);
  }

  async openIds(): Promise<string[]> {
    return this.backend.setMembers(openTasksKey);
  }

  /** Forgets an open id whose record is gone. */
  async forget(id: string): Promise<void> {
    await this.backend.removeFromSet(openTasksKey, [id]);
  }
}
