// Where a .cpuprofile's samples went: self time by function and by file (the project's files
// by path, a dependency by package, Node's internals as "node:"), and inclusive time (a sample
// counts once for every distinct function on its stack) of the functions that hold the most.
// Usage: node lib/profile-summary.mjs FILE.cpuprofile [TOP]
import { label, place, readCpuProfile } from './cpu-profile.mjs';

const [file, topArgument] = process.argv.slice(2);
if (!file) {
  console.error('usage: node lib/profile-summary.mjs FILE.cpuprofile [TOP]');
  process.exit(2);
}
const top = Number(topArgument ?? 25);
const { nodes, parent, profile } = readCpuProfile(file);

const self = new Map();
const byFile = new Map();
const inclusive = new Map();
let total = 0;
for (const id of profile.samples) {
  const node = nodes.get(id);
  total += 1;
  const name = label(node);
  self.set(name, (self.get(name) ?? 0) + 1);
  const where = node.callFrame.url ? place(node.callFrame.url) : node.callFrame.functionName;
  byFile.set(where, (byFile.get(where) ?? 0) + 1);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const key = label(nodes.get(at));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
  }
}
const share = (count) => `${((100 * count) / total).toFixed(1).padStart(5)}%`;
function print(title, map, count = top) {
  console.log(`\n${title}`);
  for (const [name, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${share(hits)}  ${name}`);
}
const idle = self.get('(idle) (native)') ?? 0;
console.log(`${total} samples; idle ${share(idle)}, garbage collection ${share(self.get('(garbage collector) (native)') ?? 0)}, program ${share(self.get('(program) (native)') ?? 0)}`);
print('self, by function', self);
print('self, by file or package', byFile);
print('inclusive, by function', inclusive, top * 2);
