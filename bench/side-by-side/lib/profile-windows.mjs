// One CPU profile of a gateway that served several cases in turns (stream-cost.sh with
// PROFILE=1), split by the case each sample fell in: the main thread's CPU per request of each
// case, and the functions whose time per request differs most from the first case's, self and
// inclusive. Cases measured in one process, turn by turn, share the machine's state, so the
// differences are the cases' own (two profiles taken minutes apart differ by the machine's drift).
// Usage: node lib/profile-windows.mjs FILE.cpuprofile WINDOWS [TOP]
//   WINDOWS: one line per turn, "CASE START END REQUESTS", START and END in seconds of
//   /proc/uptime (the clock of the profile's timestamps: CLOCK_MONOTONIC, in microseconds).
import { readFileSync } from 'node:fs';
import { label, readCpuProfile } from './cpu-profile.mjs';

const [file, windowsFile, topArgument] = process.argv.slice(2);
if (!file || !windowsFile) {
  console.error('usage: node lib/profile-windows.mjs FILE.cpuprofile WINDOWS [TOP]');
  process.exit(2);
}
const top = Number(topArgument ?? 30);
const { profile, nodes, parent } = readCpuProfile(file);
// Each turn's first and last 100 ms are left out: /proc/uptime has a resolution of 10 ms, and
// wrk connects and disconnects there.
const margin = 100_000;
const turns = readFileSync(windowsFile, 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [name, start, end, requests] = line.split(' ');
    const from = Number(start) * 1e6;
    const to = Number(end) * 1e6;
    // The requests of the part kept, at the turn's average rate.
    return { name, from: from + margin, to: to - margin, requests: (Number(requests) * (to - from - 2 * margin)) / (to - from) };
  });
const cases = [...new Set(turns.map((turn) => turn.name))];
const tally = new Map(cases.map((name) => [name, { self: new Map(), inclusive: new Map(), busy: 0, requests: 0 }]));
for (const turn of turns) tally.get(turn.name).requests += turn.requests;

const add = (map, key, time) => map.set(key, (map.get(key) ?? 0) + time);
let at = profile.startTime;
for (let index = 0; index < profile.samples.length; index++) {
  at += profile.timeDeltas[index];
  const turn = turns.find((candidate) => at >= candidate.from && at < candidate.to);
  if (turn === undefined) continue;
  // A sample stands for the time until the next one.
  const time = profile.timeDeltas[index + 1] ?? 0;
  const node = nodes.get(profile.samples[index]);
  const name = label(node);
  if (name.startsWith('(idle)')) continue;
  const counts = tally.get(turn.name);
  counts.busy += time;
  add(counts.self, name, time);
  const seen = new Set();
  for (let id = node.id; id !== undefined; id = parent.get(id)) {
    const key = label(nodes.get(id));
    if (!seen.has(key)) add(counts.inclusive, key, time);
    seen.add(key);
  }
}

const perRequest = (counts, map, key) => (map.get(key) ?? 0) / counts.requests;
for (const name of cases) {
  const counts = tally.get(name);
  console.log(`${name}: ${(counts.busy / counts.requests).toFixed(1)} us of main-thread CPU per request (${Math.round(counts.requests)} requests sampled)`);
}
const [first, ...others] = cases;
const base = tally.get(first);
for (const name of others) {
  const counts = tally.get(name);
  for (const kind of ['self', 'inclusive']) {
    const keys = new Set([...base[kind].keys(), ...counts[kind].keys()]);
    const rows = [...keys]
      .map((key) => ({ key, a: perRequest(base, base[kind], key), b: perRequest(counts, counts[kind], key) }))
      .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
      .slice(0, top);
    console.log(`\n${name} against ${first}, ${kind} time: difference, then each, us per request`);
    for (const { key, a, b } of rows) console.log(`${(b - a).toFixed(1).padStart(7)}  (${a.toFixed(1).padStart(6)} ${b.toFixed(1).padStart(6)})  ${key}`);
  }
}
