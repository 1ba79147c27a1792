import { randomUUID } from 'node:crypto';

/**
 * A new request id: a UUID version 7 (RFC 9562), the Unix milliseconds of `now` in its first
 * 48 bits and 74 random bits after them. Ids made later sort after earlier ones, so the usage
 * log's index on `request_id` grows at its right edge, as its time indexes do: a random id
 * (version 4) lands on a random page of that index, and every such page is rewritten in the
 * WAL at each commit, which made a random index the largest part of a record's cost.
 */
export function timeOrderedRequestId(now: number = Date.now()): string {
  const time = now.toString(16).padStart(12, '0');
  // randomUUID's `xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx`: its version digit becomes 7; the
  // variant (N) and the random digits after it stay.
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
