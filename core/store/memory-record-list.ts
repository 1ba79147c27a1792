/** What a record of a log the memory driver keeps has: its id, and its time (Unix seconds). */
interface LoggedRecord {
  id: number;
  created_at: number;
}

/**
 * A log of the memory driver (the usage log, the audit trail): a bounded list in this process,
 * oldest first, of at most `capacity` records; each batch written drops the oldest past it.
 */
export class MemoryRecordList<Logged extends LoggedRecord> {
  readonly #records: Logged[] = [];
  readonly #capacity: number;
  #lastId = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Adds records, each given the next id; returns them with their ids. */
  append(records: ReadonlyArray<Omit<Logged, 'id'>>): Logged[] {
    const added = records.map((record) => {
      this.#lastId += 1;
      return { id: this.#lastId, ...record } as Logged;
    });
    this.#records.push(...added);
    if (this.#records.length > this.#capacity) this.#records.splice(0, this.#records.length - this.#capacity);
    return added;
  }

  /** Removes at most `limit` of the oldest records created before `createdBefore`; returns how many went. */
  removeBefore(createdBefore: number, limit: number): number {
    // Oldest first: the expired ones are at the front, up to the first record still kept.
    let count = 0;
    while (count < limit && count < this.#records.length && (this.#records[count] as Logged).created_at < createdBefore) count += 1;
    this.#records.splice(0, count);
    return count;
  }

  /** Every record, oldest first (a copy of the list). */
  exportRecords(): Logged[] {
    return this.#records.slice();
  }

  /** Adds a record with its own id, in id order; new records' ids follow the largest. */
  importRecord(record: Logged): void {
    const last = this.#records.at(-1);
    this.#records.push(record);
    if (last !== undefined && last.id > record.id) this.#records.sort((a, b) => a.id - b.id);
    this.#lastId = Math.max(this.#lastId, record.id);
  }

  /** The records, newest first, from a copy of the list (an append or removal meanwhile changes nothing a reader sees). */
  *newestFirst(): Generator<Logged> {
    const snapshot = this.#records.slice();
    for (let index = snapshot.length - 1; index >= 0; index -= 1) yield snapshot[index] as Logged;
  }
}
