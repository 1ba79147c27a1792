import { invalidRequest } from '../../core/index.js';

/** The options a 1.x prompt may carry as `--name value` markers (spec part 2, `dsx-` fields). */
export type DsxMarkerName = 'resolution' | 'ratio' | 'duration' | 'frames' | 'fps' | 'seed' | 'watermark' | 'camera_fixed';

// The spec's spellings, plus Ark's own `--rt` and `--framepersecond` (upstreams.md §3.3,
// fixture ark-seedance-create-requests.json, legacy_text_markers).
const markerNames: Record<string, DsxMarkerName> = {
  rs: 'resolution',
  resolution: 'resolution',
  ratio: 'ratio',
  rt: 'ratio',
  dur: 'duration',
  duration: 'duration',
  frames: 'frames',
  fps: 'fps',
  framespersecond: 'fps',
  framepersecond: 'fps',
  seed: 'seed',
  wm: 'watermark',
  watermark: 'watermark',
  cf: 'camera_fixed',
  camerafixed: 'camera_fixed',
};

/** One marker as the client wrote it. */
export interface DsxMarker {
  name: DsxMarkerName;
  /** As written, e.g. `--rs`; names the marker in error params. */
  written: string;
  value: string;
}

/** A prompt split into its prose and its markers. */
export interface DsxMarkedText {
  /** The text without markers and their values; empty when the text is only markers. */
  prose: string;
  markers: Map<DsxMarkerName, DsxMarker>;
}

const markerToken = /^--[A-Za-z]+$/;

/** The known marker a token is, if it is one. */
export const dsxMarkerName = (token: string): DsxMarkerName | undefined =>
  markerToken.test(token) ? markerNames[token.slice(2).toLowerCase()] : undefined;

/**
 * Reads the `--name value` markers of a prompt. Each invalid one is a 400 whose param is
 * the text's path and the marker (`metadata.content[0].text --frames`): an unknown name, a
 * marker without a value, or one given twice (under either spelling). A lone `--` or a
 * word such as `--` inside prose is not a marker.
 */
export function readDsxMarkers(text: string, param: string): DsxMarkedText {
  const tokens = text.split(/\s+/).filter((token) => token !== '');
  const markers = new Map<DsxMarkerName, DsxMarker>();
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
      throw invalidRequest(`${where}: unknown marker; the markers are --rs, --ratio, --dur, --frames, --fps, --seed, --wm and --cf (and their long forms)`, { param: where });
    }
    const value = tokens[index + 1];
    if (value === undefined || markerToken.test(value)) throw invalidRequest(`${where}: needs a value, e.g. "${token} ${exampleValues[name]}"`, { param: where });
    const earlier = markers.get(name);
    if (earlier !== undefined) throw invalidRequest(`${where}: given twice (also as ${earlier.written}); keep one`, { param: where });
    markers.set(name, { name, written: token, value });
    index += 1;
  }
  return { prose: prose.join(' '), markers };
}

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

/** The first known marker in a text, for the models that take fields instead. */
export function firstDsxMarker(text: string): string | undefined {
  return text.split(/\s+/).find((token) => dsxMarkerName(token) !== undefined);
}
