import type Keyv from 'keyv';
import type { StoreBackend } from '../../core/store/store-backend.js';
import type { AssetGroupOwnership, AssetOwnership, ValidationSessionOwnership } from './asset-ownership.js';

type Stored = AssetGroupOwnership | AssetOwnership | ValidationSessionOwnership;

const groupsOfUser = (userId: number) => `assets:user-groups:${userId}`;
const assetsOfGroup = (groupId: string) => `assets:group-assets:${groupId}`;

/**
 * Who owns which asset group, asset and validation session: records in the keyv namespace
 * `assets` (`group:<id>`, `asset:<id>`, `session:<token>`), plus index sets of a user's groups
 * and a group's assets, so a user's library is listed without scanning the store.
 */
export class AssetOwnershipRepository {
  readonly #records: Keyv<Stored>;

  constructor(private readonly backend: StoreBackend) {
    this.#records = backend.keyv<Stored>('assets');
  }

  async group(id: string): Promise<AssetGroupOwnership | undefined> {
    return ((await this.#records.get(`group:${id}`)) as AssetGroupOwnership | undefined) ?? undefined;
  }

  async asset(id: string): Promise<AssetOwnership | undefined> {
    return ((await this.#records.get(`asset:${id}`)) as AssetOwnership | undefined) ?? undefined;
  }

  async session(token: string): Promise<ValidationSessionOwnership | undefined> {
    return ((await this.#records.get(`session:${token}`)) as ValidationSessionOwnership | undefined) ?? undefined;
  }

  async saveGroup(record: AssetGroupOwnership): Promise<void> {
    await this.#records.set(`group:${record.id}`, record);
    await this.backend.addToSet(groupsOfUser(record.user_id), [record.id]);
  }

  async saveAsset(record: AssetOwnership): Promise<void> {
    await this.#records.set(`asset:${record.id}`, record);
    await this.backend.addToSet(assetsOfGroup(record.group_id), [record.id]);
  }

  /** Keeps a session until it expires. */
  async saveSession(record: ValidationSessionOwnership, now: number): Promise<void> {
    await this.#records.set(`session:${record.byted_token}`, record, Math.max(1000, record.expires_at * 1000 - now));
  }

  /** The user's groups, newest first. */
  async groupsOf(userId: number): Promise<AssetGroupOwnership[]> {
    const groups = await Promise.all((await this.backend.setMembers(groupsOfUser(userId))).map((id) => this.group(id)));
    return groups.filter((group): group is AssetGroupOwnership => group !== undefined).sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
  }

  /** The assets of a group, newest first. */
  async assetsOf(groupId: string): Promise<AssetOwnership[]> {
    const assets = await Promise.all((await this.backend.setMembers(assetsOfGroup(groupId))).map((id) => this.asset(id)));
    return assets.filter((asset): asset is AssetOwnership => asset !== undefined).sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
  }

  async deleteAsset(record: AssetOwnership): Promise<void> {
    await this.#records.delete(`asset:${record.id}`);
    await this.backend.removeFromSet(assetsOfGroup(record.group_id), [record.id]);
  }

  /** Deletes a group and the records of its assets (the upstream deletes them with it). */
  async deleteGroup(record: AssetGroupOwnership): Promise<void> {
    for (const asset of await this.assetsOf(record.id)) await this.deleteAsset(asset);
    await this.#records.delete(`group:${record.id}`);
    await this.backend.removeFromSet(groupsOfUser(record.user_id), [record.id]);
  }
}
