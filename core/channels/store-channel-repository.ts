import { inject } from '../di/dependency-injection.js';
import { InjectionTokens } from '../di/injection-tokens.js';
import type { StoreBackend } from '../store/store-backend.js';
import { StoreRepository } from '../store/store-repository.js';
import type { ChannelRepository, StoredChannelRecord } from './channel-repository.js';

const recordsNamespace = 'channels';
const namesSet = 'channel-names';
const disabledSet = 'channels-disabled';

/** {@link ChannelRepository} on any {@link StoreBackend}: a record per channel, a set of their names, a set of the disabled ones. */
export class StoreChannelRepository extends StoreRepository implements ChannelRepository {
  readonly #records = this.backend.keyv<StoredChannelRecord>(recordsNamespace);

  constructor(@inject(InjectionTokens.storeBackend) backend: StoreBackend) {
    super(backend);
  }

  async list(): Promise<StoredChannelRecord[]> {
    const names = await this.backend.setMembers(namesSet);
    if (names.length === 0) return [];
    const records = await this.#records.getMany(names);
    // A name whose record is gone was deleted between the two reads.
    return records.filter((record): record is StoredChannelRecord => record !== undefined && record !== null);
  }

  async get(name: string): Promise<StoredChannelRecord | undefined> {
    return (await this.#records.get(name)) ?? undefined;
  }

  /** The record and its name, with the disabled mark when asked, written together: no reader sees a name without its record. */
  async save(record: StoredChannelRecord, disabled?: boolean): Promise<void> {
    await this.backend.writeTogether({
      records: [{ namespace: recordsNamespace, key: record.name, value: record }],
      setAdditions: [{ key: namesSet, members: [record.name] }, ...(disabled === true ? [{ key: disabledSet, members: [record.name] }] : [])],
    });
    if (disabled === false) await this.backend.removeFromSet(disabledSet, [record.name]);
  }

  async delete(name: string): Promise<void> {
    await this.backend.removeFromSet(namesSet, [name]);
    await this.#records.delete(name);
    await this.backend.removeFromSet(disabledSet, [name]);
  }

  async disabledNames(): Promise<Set<string>> {
    return new Set(await this.backend.setMembers(disabledSet));
  }

  async setDisabled(name: string, disabled: boolean): Promise<void> {
    if (disabled) await this.backend.addToSet(disabledSet, [name]);
    else await this.backend.removeFromSet(disabledSet, [name]);
  }
}
