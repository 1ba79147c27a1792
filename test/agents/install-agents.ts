import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/agents, the agents' own package. */
const agentsFolder = fileURLToPath(new URL('.', import.meta.url));

/** The pinned packages of test/agents/package.json that are not installed at their pinned version. */
export function missingAgentPackages(): string[] {
  const manifest = JSON.parse(readFileSync(join(agentsFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.entries(manifest.dependencies)
    .filter(([name, version]) => {
      const installed = join(agentsFolder, 'node_modules', name, 'package.json');
      return !existsSync(installed) || (JSON.parse(readFileSync(installed, 'utf8')) as { version?: string }).version !== version;
    })
    .map(([name, version]) => `${name}@${version}`);
}

/**
 * Installs the coding agents into test/agents/node_modules, at the versions its package.json
 * pins and its lock file resolves, when one of them is missing or at another version, so the
 * gateway's own `npm ci` never downloads them. Returns false, having printed npm's output,
 * when the install fails: the caller fails the test run rather than skipping the agent tests.
 *
 * `npm install --no-save`, not `npm ci`: opencode-ai lists a binary package per platform as
 * optional dependencies, and the registry this lock was made against serves only the
 * linux-x64 ones, so the lock cannot name the others and `npm ci` refuses it as out of sync.
 * `install` takes the lock's versions and skips an optional package it cannot fetch;
 * `--no-save` leaves package.json and the lock as committed.
 */
export function installAgents(): boolean {
  const missing = missingAgentPackages();
  if (missing.length === 0) return true;
  console.log(`installing the coding agents the agent tests run (${missing.join(', ')}) into test/agents/node_modules`);
  const started = Date.now();
  const install = spawnSync('npm', ['install', '--prefix', agentsFolder, '--no-save', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (install.status !== 0 || missingAgentPackages().length > 0) {
    console.error(`npm install --prefix test/agents failed (exit ${String(install.status ?? install.signal)}): the agent tests cannot run`);
    return false;
  }
  console.log(`the coding agents are installed (${Math.round((Date.now() - started) / 1000)} s)`);
  return true;
}
