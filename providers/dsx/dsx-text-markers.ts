import { fieldError } from '../../core/kit/index.js';
import type { DsxModelProfile } from './dsx-model-profiles.js';

/** The frame rate every Seedance task reports (fixture ark-seedance-task-succeeded.json, `framespersecond`). */
export const dsxFramesPerSecond = 24;

/** The options a 1.x prompt may carry as `--name value` markers (spec part 2, `dsx-` fields). */
type DsxMarkerName = 'resolution' | 'ratio' | 'duration' | 'frames' | 'fps' | 'seed' | 'watermark' | 'camera_fixed';

// The spec's spellings, plus Ark's own `--rt` and `--framepersecond` (upstreams.md §3.3,
// fixture ark-seedance-create-requests.json, legacy_text_markers).
const spellings: Record<DsxMarkerName, string[]> = {
  resolution: ['rs', 'resolution'],
  ratio: ['ratio', 'rt'],
  duration: ['dur', 'duration'],
  frames: ['frames'],
  fps: ['fps', 'framespersecond', 'framepersecond'],
  seed: ['seed'],
  watermark: ['wm', 'watermark'],
  camera_fixed: ['cf', 'camerafixed'],
};
// A Map, not an object: `--constructor` must be an unknown marker, not Object.prototype's.
const markerNames = new Map<string, DsxMarkerName>(
  Object.entries(spellings).flatMap(([name, forms]) => forms.map((form): [string, DsxMarkerName] => [form, name as DsxMarkerName])),
);

const exampleValues: Record<DsxMarkerName, string> = {
  resolution: '720p',
  ratio: '16:9',
  duration: '5',
  frames: '121',
  fps: '24',
  seed: '11',
  watermark: 'false',
  camera_fixed: 'false',
};

const markerToken = /^--[A-Za-z]+$/;

const dsxMarkerName = (token: string): DsxMarkerName | undefined => (markerToken.test(token) ? markerNames.get(token.slice(2).toLowerCase()) : undefined);

/** The first known marker in a text, for the models that take fields instead. */
export const firstDsxMarker = (text: string): string | undefined => text.split(/\s+/).find((token) => dsxMarkerName(token) !== undefined);

/** The options of a 1.x prompt that billing depends on, checked against its model. */
export interface DsxMarkerValues {
  resolution?: string;
  ratio?: string;
  duration?: number;
  frames?: number;
}

/**
 * Reads the `--name value` markers of a prompt, then checks their values against the model
 * (spec part 2, `dsx-` fields; the marker table is in this folder's README). Each invalid one
 * is a 400 whose param is the text's path and the marker as written (`metadata.content[0].text
 * --frames`): an unknown name, a marker without a value or given twice (under either spelling),
 * or a value the model does not take. A lone `--` or a word such as `--` inside prose is not a marker.
 */
export function readDsxMarkers(text: string, param: string, profile: DsxModelProfile): { prose: string; values: DsxMarkerValues } {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const markers = new Map<DsxMarkerName, { written: string; value: string }>();
  const prose: string[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (!markerToken.test(token)) {
      prose.push(token);
      continue;
    }
    const where = `${param} ${token}`;
    const name = dsxMarkerName(token);
    if (name === undefined) {
      throw fieldError(where, 'unknown marker; the markers are --rs, --ratio, --dur, --frames, --fps, --seed, --wm and --cf (and their long forms)');
    }
    const value = tokens[index + 1];
    if (value === undefined || markerToken.test(value)) throw fieldError(where, `needs a value, e.g. "${token} ${exampleValues[name]}"`);
    const earlier = markers.get(name);
    if (earlier !== undefined) throw fieldError(where, `given twice (also as ${earlier.written}); keep one`);
    markers.set(name, { written: token, value });
    index += 1;
  }
  return { prose: prose.join(' '), values: checkMarkerValues(markers, profile, param) };
}

const wholeNumber = (value: string): number | undefined => (/^-?\d+$/.test(value) ? Number(value) : undefined);

function checkMarkerValues(markers: Map<DsxMarkerName, { written: string; value: string }>, profile: DsxModelProfile, textParam: string): DsxMarkerValues {
  const values: DsxMarkerValues = {};
  for (const [name, { written, value }] of markers) {
    const param = `${textParam} ${written}`;
    const refuse = (why: string): never => {
      throw fieldError(param, why);
    };
    const number = wholeNumber(value);
    switch (name) {
      case 'resolution':
        if (!profile.resolutions.includes(value)) refuse(`"${value}" is not a resolution of ${profile.id}; use ${profile.resolutions.join(' or ')}`);
        values.resolution = value;
        break;
      case 'ratio':
        if (!profile.ratios.includes(value)) refuse(`"${value}" is not an aspect ratio of ${profile.id}; use one of ${profile.ratios.join(', ')}`);
        values.ratio = value;
        break;
      case 'duration': {
        const { min, max } = profile.durations;
        if (number === undefined || number < min || number > max) {
          refuse(`"${value}" is not a duration of ${profile.id}; use whole seconds from ${min} to ${max}`);
        }
        values.duration = number;
        break;
      }
      case 'frames':
        if (!profile.frames) refuse(`--frames is only for the 1.5 pro models; use --dur for ${profile.id}`);
        if (number === undefined || number < 29 || number > 289 || (number - 25) % 4 !== 0) {
          refuse(`"${value}" is not a frame count; use 25+4n within 29 to 289 (29, 33, ... 121, ... 289)`);
        }
        values.frames = number;
        break;
      case 'fps':
        if (number !== dsxFramesPerSecond) refuse(`"${value}" is not a frame rate Seedance renders; use ${dsxFramesPerSecond}`);
        break;
      case 'seed':
        if (number === undefined || number < -1 || number > 4_294_967_295) {
          refuse(`"${value}" is not a seed; use a whole number from -1 (random) to 4294967295`);
        }
        break;
      case 'watermark':
      case 'camera_fixed':
        if (name === 'camera_fixed' && !profile.cameraFixed) refuse(`--cf is only for the lite models, not ${profile.id}`);
        if (value !== 'true' && value !== 'false') refuse(`"${value}" is not true or false`);
        break;
    }
  }
  return values;
}
