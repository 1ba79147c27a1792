import { invalidRequest } from '../../core/index.js';
import { quoted } from '../../core/kit/index.js';

/** How a request shows which images it carries (spec part 2, `dsx-` fields; upstreams.md §3.3). */
export type DsxImageMode = 'text' | 'first_frame' | 'first_last_frame' | 'reference_image';

/** What one Seedance-style model accepts. */
export interface DsxModelProfile {
  /** The spec's id of the model, e.g. `dsx-1-5-pro-251215`. */
  id: string;
  /**
   * `markers`: the 1.x body, `metadata.content[]` whose text carries `--rs 720p`-style
   * options; `fields`: the 2.0 body, flat fields plus multi-modal `metadata.content[]`.
   */
  form: 'markers' | 'fields';
  /** Output resolutions, also the keys of a price's `resolution_multipliers`. */
  resolutions: readonly string[];
  /** Whole seconds the model renders. */
  durations: { min: number; max: number };
  ratios: readonly string[];
  /** The image modes the model has; `text` means it also renders from the prompt alone. */
  modes: ReadonlySet<DsxImageMode>;
  /** The most `reference_image`, `reference_video` and `reference_audio` items (videos and audio 2.0 only). */
  maxReferenceImages: number;
  maxReferenceVideos: number;
  maxReferenceAudios: number;
  /** Whether it takes `--frames`, `--cf` and `metadata.return_last_frame`. */
  frames: boolean;
  cameraFixed: boolean;
  returnLastFrame: boolean;
  /** `generate_audio` sent to the upstream: 1.5 pro with sound, its `noAudio` id silent; unset leaves the upstream's default. */
  generateAudio?: boolean;
  /** `asset://` references (the asset library of the 2.0 models). */
  assets: boolean;
  /** The status a finished task shows; the 2.0 models say `completed` (spec part 2, Video task). */
  succeededStatus?: string;
}

/** The duration and resolution the spec gives a request that names none (spec part 2, common flat fields). */
export const dsxDefaults = { seconds: 5, resolution: '720p' } as const;

const allResolutions = ['480p', '720p', '1080p'] as const;
const markerRatios = ['16:9', '9:16', '1:1', '4:3', '3:4', 'adaptive'] as const;

const liteText: DsxModelProfile = {
  id: 'dsx-1-0-lite-t2v-250428',
  form: 'markers',
  // The spec names the resolutions of the 1.5 and pro models only; upstreams.md §3.3 lists
  // 480p, 720p and 1080p for Ark's tasks without restricting lite, so lite takes all three.
  resolutions: allResolutions,
  // Neither the spec nor upstreams.md gives the 1.0 range; Ark's public docs say 2 to 12 s.
  durations: { min: 2, max: 12 },
  ratios: markerRatios.filter((ratio) => ratio !== 'adaptive'),
  modes: new Set(['text']),
  maxReferenceImages: 0,
  maxReferenceVideos: 0,
  maxReferenceAudios: 0,
  frames: false,
  cameraFixed: true,
  returnLastFrame: false,
  assets: false,
};

const liteImage: DsxModelProfile = {
  ...liteText,
  id: 'dsx-1-0-lite-i2v-250428',
  ratios: markerRatios,
  modes: new Set(['first_frame', 'first_last_frame', 'reference_image']),
  // upstreams.md §3.3: 1 to 4 reference images for 1.0-lite.
  maxReferenceImages: 4,
};

const pro10: DsxModelProfile = {
  ...liteText,
  id: 'dsx-1-0-pro-250528',
  resolutions: ['720p', '1080p'],
  ratios: markerRatios,
  modes: new Set(['text', 'first_frame', 'first_last_frame']),
  cameraFixed: false,
};

const pro15: DsxModelProfile = {
  ...pro10,
  id: 'dsx-1-5-pro-251215',
  resolutions: ['480p', '720p'],
  durations: { min: 4, max: 12 },
  frames: true,
  returnLastFrame: true,
  generateAudio: true,
};

const pro15Silent: DsxModelProfile = { ...pro15, id: 'dsx-1-5-pro-251215-noAudio', generateAudio: false };

const sdx20: DsxModelProfile = {
  id: 'sdx-2-0',
  form: 'fields',
  resolutions: allResolutions,
  // The spec gives no range for 2.0; Seedance 2.0 renders 4 to 15 s (upstreams.md §3.4
  // caps references at 15 s in total; the vendor's docs give 4 to 15 for the output).
  durations: { min: 4, max: 15 },
  ratios: ['16:9', '9:16', '1:1', '4:3', '3:4', '21:9', 'adaptive'],
  modes: new Set(['text', 'first_frame', 'first_last_frame', 'reference_image']),
  // upstreams.md §3.4: up to 9 images, 3 videos and 3 audio clips.
  maxReferenceImages: 9,
  maxReferenceVideos: 3,
  maxReferenceAudios: 3,
  frames: false,
  cameraFixed: false,
  returnLastFrame: true,
  assets: true,
  succeededStatus: 'completed',
};

const sdx20Fast: DsxModelProfile = { ...sdx20, id: 'sdx-2-0-fast', resolutions: ['480p', '720p'] };

const dsxModelProfiles: readonly DsxModelProfile[] = [liteText, liteImage, pro10, pro15, pro15Silent, sdx20, sdx20Fast];

// An id the spec does not list (a channel's own alias such as doubao-seedance-1-5-pro-251215)
// still tells its model; the more specific names come first.
const patterns: Array<[RegExp, DsxModelProfile]> = [
  [/lite-t2v/i, liteText],
  [/lite-i2v/i, liteImage],
  [/1-5-pro.*no-?audio/i, pro15Silent],
  [/1-5-pro/i, pro15],
  [/1-0-pro/i, pro10],
  [/2-0-fast/i, sdx20Fast],
  [/(?:sdx|seedance)-2-0/i, sdx20],
];

/**
 * The profile of the model the client asked for, by its id or, for another id, by the
 * model its name tells. A model of no known kind is a 400: nothing would check its fields.
 */
export function dsxModelProfile(model: string): DsxModelProfile {
  const profile = dsxModelProfiles.find((candidate) => candidate.id === model) ?? patterns.find(([pattern]) => pattern.test(model))?.[1];
  if (profile !== undefined) return profile;
  const known = dsxModelProfiles.map((candidate) => candidate.id).join(', ');
  throw invalidRequest(`model ${quoted(model)} is not a Seedance-style video model this gateway knows; use one of ${known}`, { param: 'model' });
}
