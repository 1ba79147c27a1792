import type Keyv from 'keyv';

/**
 * Remembers which channel produced a key a later request may name (a Responses id that a
 * `previous_response_id` continues), so the follow-up goes back to the upstream that holds
 * the conversation. Entries live in the store with a TTL, so every gateway process on one
 * Redis shares them and a restart on SQLite keeps them.
 */
export class ChannelAffinity {
  constructor(
    private readonly records: Keyv<string>,
    private readonly ttlMilliseconds: number,
  ) {}

  /** The channel that produced `key`, or undefined when it is unknown or expired. */
  async channelOf(key: string): Promise<string | undefined> {
    return (await this.records.get(key)) ?? undefined;
  }

  async remember(key: string, channel: string): Promise<void> {
    await this.records.set(key, channel, this.ttlMilliseconds);
  }
}
