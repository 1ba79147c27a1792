import { invalidRequest, quoted } from '../../core/index.js';

/** The output sizes of the 3.0 models (spec part 2, Seedream-style family, `size`). */
export const dsrSizes30 = ['1024x1024', '1152x864', '864x1152', '1280x720', '720x1280', '1248x832', '832x1248', '1512x648'] as const;

/** The 2K output sizes of 4.0 and 4.5. */
export const dsrSizes2K = ['2048x2048', '2304x1728', '1728x2304', '2560x1440', '1440x2560', '2496x1664', '1664x2496', '3024x1296'] as const;

/** The 4K output sizes of 4.0 and 4.5. */
export const dsrSizes4K = ['4096x4096', '4704x3520', '3520x4704', '5504x3040', '3040x5504', '4992x3328', '3328x4992', '6240x2656'] as const;

/** What one Seedream-style model accepts. */
export interface DsrModelProfile {
  /** The spec's id of the model, e.g. `dsr-4-0-250828`. */
  id: string;
  /** Exact `WxH` values of `size`. */
  sizes: readonly string[];
  /** Resolution words `size` may also be; the upstream picks the exact size (upstreams.md §3.2, 4.x only). */
  sizeTiers: readonly string[];
  /** Whether `guidance_scale` is accepted; when it is and the client leaves it out, the spec's default goes out. */
  guidanceScale: boolean;
  /** Whether `sequential_image_generation` (image groups) is accepted. */
  sequential: boolean;
  /** The `optimize_prompt_options.mode` values accepted; empty when the field is not. */
  optimizeModes: readonly string[];
  /** How many reference images the model takes. */
  references: { min: number; max: number };
}

/** Ark's limit on reference images per request (upstreams.md §3.2, "up to 14"). */
export const maxDsrReferences = 14;

/** Ark's limit on reference images plus generated images of one group (upstreams.md §3.2). */
export const maxDsrImagesPerGroup = 15;

const t2i30: DsrModelProfile = {
  id: 'dsr-3-0-t2i-250415',
  sizes: dsrSizes30,
  sizeTiers: [],
  guidanceScale: true,
  sequential: false,
  optimizeModes: [],
  references: { min: 0, max: 0 },
};

const i2i30: DsrModelProfile = { ...t2i30, id: 'dse-3-0-i2i-250628', references: { min: 1, max: 1 } };

const v40: DsrModelProfile = {
  id: 'dsr-4-0-250828',
  sizes: [...dsrSizes2K, ...dsrSizes4K],
  sizeTiers: ['2K', '4K'],
  guidanceScale: false,
  sequential: true,
  optimizeModes: ['standard', 'fast'],
  references: { min: 0, max: maxDsrReferences },
};

const v45: DsrModelProfile = { ...v40, id: 'dsr-4-5-251128', optimizeModes: ['standard'] };

/** Every profile, by the spec's model id. */
export const dsrModelProfiles: readonly DsrModelProfile[] = [t2i30, i2i30, v40, v45];

// An id the spec does not list (a channel's own alias, or the upstream's name after
// model_map) still tells its version: doubao-seedream-4-0-250828, seededit-3-0-i2i-...
const patterns: Array<[RegExp, DsrModelProfile]> = [
  [/(?:dse|seededit)-3-0/, i2i30],
  [/(?:dsr|seedream)-3-0/, t2i30],
  [/(?:dsr|seedream)-4-0/, v40],
  [/(?:dsr|seedream)-4-5/, v45],
];

function profileOf(model: string): DsrModelProfile | undefined {
  return dsrModelProfiles.find((profile) => profile.id === model) ?? patterns.find(([pattern]) => pattern.test(model))?.[1];
}

/**
 * The profile of the model the client asked for, else of the model the channel maps it to.
 * A model neither names is a 400: its rules are unknown, so nothing would check the request.
 */
export function dsrModelProfile(model: string, upstreamModel: string): DsrModelProfile {
  const profile = profileOf(model) ?? profileOf(upstreamModel);
  if (profile !== undefined) return profile;
  const known = dsrModelProfiles.map((known) => known.id).join(', ');
  throw invalidRequest(`model: ${quoted(model)} is not a Seedream-style model the dsr provider knows; use one of ${known}`, { param: 'model' });
}
