import type { DsxModelProfile } from './dsx-model-profiles.js';
import type { DsxContentItem } from './dsx-request-schema.js';

/** An `asset://` reference of a submission, for the asset lookup. */
export interface DsxAssetReference {
  /** The virtual id after `asset://`. */
  id: string;
  /** Where the client wrote it, e.g. `metadata.content[2].video_url.url`. */
  param: string;
  /** Its position in the upstream `content[]`. */
  index: number;
  /** The item type the client gave it. */
  type: 'image_url' | 'video_url' | 'audio_url';
}

/** A checked submission: what goes upstream and what it is billed by. */
export interface DsxSubmission {
  profile: DsxModelProfile;
  /** The upstream `content[]`, in order. */
  content: DsxContentItem[];
  /** Ark's top-level fields besides `model` and `content` (upstreams.md §3.3). */
  fields: Record<string, string | number | boolean>;
  /** The seconds billed: the duration, or frames / frame rate. */
  seconds: number;
  /** The output resolution billed, a `resolution_multipliers` key. */
  resolution: string;
  /** The frames asked for with `--frames` (1.5 pro). */
  frames?: number;
  /** The aspect ratio asked for, if any. */
  ratio?: string;
  assets: DsxAssetReference[];
}

/** The duration and resolution the spec gives a request that names none (spec part 2, common flat fields). */
export const dsxDefaults = { seconds: 5, resolution: '720p' } as const;
