import { invalidRequest } from '../../core/index.js';
import type { DsxModelProfile } from './dsx-model-profiles.js';
import type { DsxMarker, DsxMarkerName } from './dsx-text-markers.js';

/** The frame rate every Seedance task reports (fixture ark-seedance-task-succeeded.json, `framespersecond`). */
export const dsxFramesPerSecond = 24;

/** The options a 1.x prompt set, checked against its model. */
export interface DsxMarkerValues {
  resolution?: string;
  ratio?: string;
  duration?: number;
  frames?: number;
  fps?: number;
  seed?: number;
  watermark?: boolean;
  cameraFixed?: boolean;
}

const wholeNumber = (value: string): number | undefined => (/^-?\d+$/.test(value) ? Number(value) : undefined);

const booleanValue = (value: string): boolean | undefined => (value === 'true' ? true : value === 'false' ? false : undefined);

/**
 * Checks each marker's value against the model (spec part 2, `dsx-` fields): resolution
 * and ratio from the model's lists, whole seconds in its range, `--frames` only on 1.5 pro
 * and of the form 25+4n within 29..289, `--fps` 24 (the only rate Ark renders), `--seed`
 * -1..2^32-1, `--wm` and `--cf` true or false, `--cf` only on the lite models. The first
 * wrong one is a 400 naming `<text path> <marker>`.
 */
export function checkDsxMarkers(markers: ReadonlyMap<DsxMarkerName, DsxMarker>, profile: DsxModelProfile, textParam: string): DsxMarkerValues {
  const values: DsxMarkerValues = {};
  for (const marker of markers.values()) {
    const param = `${textParam} ${marker.written}`;
    const { value } = marker;
    const refuse: (why: string) => never = (why) => {
      throw invalidRequest(`${param}: ${why}`, { param });
    };
    switch (marker.name) {
      case 'resolution':
        if (!profile.resolutions.includes(value)) refuse(`"${value}" is not a resolution of ${profile.id}; use ${profile.resolutions.join(' or ')}`);
        values.resolution = value;
        break;
      case 'ratio':
        if (!profile.ratios.includes(value)) refuse(`"${value}" is not an aspect ratio of ${profile.id}; use one of ${profile.ratios.join(', ')}`);
        values.ratio = value;
        break;
      case 'duration': {
        const seconds = wholeNumber(value);
        const { min, max } = profile.durations;
        if (seconds === undefined || seconds < min || seconds > max) refuse(`"${value}" is not a duration of ${profile.id}; use whole seconds from ${min} to ${max}`);
        values.duration = seconds;
        break;
      }
      case 'frames': {
        if (!profile.frames) refuse(`--frames is only for the 1.5 pro models; use --dur for ${profile.id}`);
        const frames = wholeNumber(value);
        if (frames === undefined || frames < 29 || frames > 289 || (frames - 25) % 4 !== 0) refuse(`"${value}" is not a frame count; use 25+4n within 29 to 289 (29, 33, ... 121, ... 289)`);
        values.frames = frames;
        break;
      }
      case 'fps':
        if (wholeNumber(value) !== dsxFramesPerSecond) refuse(`"${value}" is not a frame rate Seedance renders; use ${dsxFramesPerSecond}`);
        values.fps = dsxFramesPerSecond;
        break;
      case 'seed': {
        const seed = wholeNumber(value);
        if (seed === undefined || seed < -1 || seed > 4_294_967_295) refuse(`"${value}" is not a seed; use a whole number from -1 (random) to 4294967295`);
        values.seed = seed;
        break;
      }
      case 'watermark': {
        const flag = booleanValue(value);
        if (flag === undefined) refuse(`"${value}" is not true or false`);
        values.watermark = flag;
        break;
      }
      case 'camera_fixed': {
        if (!profile.cameraFixed) refuse(`--cf is only for the lite models, not ${profile.id}`);
        const flag = booleanValue(value);
        if (flag === undefined) refuse(`"${value}" is not true or false`);
        values.cameraFixed = flag;
        break;
      }
    }
  }
  return values;
}
