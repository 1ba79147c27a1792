// `npm test` runs this between the type-check and tap. tap 21 compiles its Test class for the
// plugins `.taprc` lists (here without @tapjs/typescript, tap's ts-node loader: the tests run
// through tsx) and notices a stale build when a run starts, but by then the runner has taken
// the old build's loaders for the test processes. So the first run after `npm ci` (which
// installs tap built for its default plugins) or after a change of plugins would start every
// test file with ts-node as well as tsx, about three times the CPU. This rebuilds tap first,
// and only when its built plugins differ from the configured ones.
//
// It also installs the coding agents the agent tests run (test/agents/, a package of their
// own, so the gateway's `npm ci` stays small) when they are missing; a failed install fails
// the run instead of letting those tests skip.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TapConfig } from '@tapjs/config';
import { signature } from '@tapjs/test';
import { installAgents } from '../test/agents/install-agents.js';

const config = await TapConfig.load();
if (config.pluginSignature !== signature) {
  const tap = join(fileURLToPath(new URL('..', import.meta.url)), 'node_modules', '.bin', 'tap');
  console.log('tap was built for other plugins than .taprc lists; rebuilding it before the run');
  const build = spawnSync(tap, ['build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exitCode = build.status ?? 1;
}
if (!installAgents()) process.exitCode = 1;
