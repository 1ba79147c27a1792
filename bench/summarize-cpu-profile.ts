import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) the summary reads. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

type CallFrame = CpuProfile['nodes'][number]['callFrame'];

/** A function's, or an area's, share of a profile. */
export interface SelfTime {
  /** `name (file:line)` for a function; a package, a source folder or a V8 category for an area. */
  location: string;
  /** Time spent in it, not in what it called. */
  milliseconds: number;
  /** That time as a share of the whole profile, 0 to 1. */
  share: number;
}

/** A call frame's file, relative to the working directory or from `node_modules/` on. */
function fileOf(frame: CallFrame): string {
  const file = frame.url.startsWith('file://') ? fileURLToPath(frame.url) : frame.url;
  const inModules = file.lastIndexOf('node_modules/');
  return inModules === -1 ? relative(process.cwd(), file) || file : file.slice(inModules);
}

function functionOf(frame: CallFrame): string {
  const name = frame.functionName === '' ? '(anonymous)' : frame.functionName;
  return frame.url === '' ? name : `${name} (${fileOf(frame)}:${frame.lineNumber + 1})`;
}

/**
 * The area a frame belongs to: an npm package (`undici`, `better-sqlite3`), a folder of this
 * project (`dist/core/pipeline`), `node:` internals, or V8's own categories (`(garbage
 * collector)`, `(program)`: native code outside JavaScript, such as an addon's work).
 */
function areaOf(frame: CallFrame): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native builtins)';
  if (frame.url.startsWith('node:')) return 'node internals';
  const file = fileOf(frame);
  const inModules = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  if (inModules !== null) return inModules[1] as string;
  return file.split('/').slice(0, -1).join('/') || file;
}

/** A profile's busy and idle time, and where the busy time went. */
export interface CpuProfileSummary {
  busyMilliseconds: number;
  /** Time the process waited for work (`(idle)` samples). */
  idleMilliseconds: number;
  /** The largest entries first; shares are of the busy time. */
  entries: SelfTime[];
}

/**
 * Self time in a `.cpuprofile` (what `node --cpu-prof` writes), summed by function (every
 * call-tree node of the same function together) or by area (npm package, source folder,
 * Node internals, V8 category such as `(garbage collector)` or `(program)`: native code
 * outside JavaScript, an addon's work among it). Idle time is counted apart, so the shares
 * say where the work went however busy the process was.
 */
export function summarizeCpuProfile(file: string, options: { by: 'function' | 'area'; limit: number }): CpuProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const keyOf = options.by === 'function' ? functionOf : areaOf;
  const keyOfNode = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName === '(idle)' ? undefined : keyOf(node.callFrame)]));
  const totals = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((nodeId, index) => {
    const microseconds = profile.timeDeltas[index] ?? 0;
    const key = keyOfNode.get(nodeId);
    if (key === undefined) {
      idle += microseconds;
      return;
    }
    busy += microseconds;
    totals.set(key, (totals.get(key) ?? 0) + microseconds);
  });
  const entries = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, options.limit)
    .map(([location, microseconds]) => ({ location, milliseconds: microseconds / 1000, share: busy === 0 ? 0 : microseconds / busy }));
  return { busyMilliseconds: busy / 1000, idleMilliseconds: idle / 1000, entries };
}
