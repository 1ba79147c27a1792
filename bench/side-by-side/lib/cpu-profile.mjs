// Reading a .cpuprofile (what `node --cpu-prof` writes), for profile-summary.mjs and
// profile-windows.mjs: its nodes by id, each node's parent, and a function's name as both print it.
import { readFileSync } from 'node:fs';

/** The profile at `file` with `nodes` (id -> node) and `parent` (id -> parent id). */
export function readCpuProfile(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return { profile, nodes, parent };
}

/** Where code lives: the project's files by path under dist/, a dependency by package, Node's internals as "node:". */
export function place(url) {
  if (!url) return '(native)';
  if (url.startsWith('node:')) return url;
  const dependency = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1];
  const own = url.match(/\/dist\/(.*)$/);
  return own ? own[1] : url.replace(/^file:\/\//, '');
}

/** A node's function: its name, place and line. */
export function label(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${place(url)}${url ? `:${lineNumber + 1}` : ''}`;
}
