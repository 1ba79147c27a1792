import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The README promises a Node version; `npm ci` warns (EBADENGINE) for every installed package
// whose `engines.node` does not admit the running Node. Every package the gateway's lock and the
// side-by-side harness's lock install must admit the README's version, so a user on it never
// sees that warning (fastify's light-my-request once pulled a cookie that asks for Node 22; both
// package.json files override it). test/agents/ is left out: it installs the coding agents the
// agent tests drive, third-party programs with their own Node requirements, not dependencies.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
/** semver is no direct dependency: npm's own range rules, as fastify (its dependant) installs them. */
const semver = createRequire(join(root, 'package.json'))('semver') as { satisfies(version: string, range: string): boolean };

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const promised = /^Node (\d+\.\d+(?:\.\d+)?) or later\./m.exec(readme)?.[1] ?? 'no version in the README';

/** "20.19" as the full version "20.19.0". */
const fullVersion = (version: string) => [...version.split('.'), '0', '0'].slice(0, 3).join('.');

interface LockFile {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
}

const readLock = (lockFile: string) => JSON.parse(readFileSync(join(root, lockFile), 'utf8')) as LockFile;

/** Every locked package (by its lock path) whose `engines.node` refuses `version`. */
function refusing(lock: LockFile, version: string): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    // Old manifests give engines as a list of strings, which npm ignores.
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    return range === undefined || semver.satisfies(version, range) ? [] : [`${path || '(root)'}@${entry.version ?? '?'} needs node ${range}`];
  });
}

t.test('the README names the Node version, and package.json asks for that version or later', async (t) => {
  t.match(promised, /^\d+\.\d+/, 'a "Node X.Y or later." sentence in the README');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
  t.equal(manifest.engines.node, `>=${promised}`);
});

for (const lockFile of ['package-lock.json', 'bench/side-by-side/package-lock.json']) {
  t.test(`every package of ${lockFile} admits the README's Node version and the one running the tests`, async (t) => {
    const lock = readLock(lockFile);
    for (const version of [fullVersion(promised), process.versions.node]) t.same(refusing(lock, version), [], `Node ${version}`);
  });
}

t.test('a locked package that asks for a newer Node is found, one that admits it is not', async (t) => {
  const lock: LockFile = {
    packages: {
      '': { version: '0.1.0', engines: { node: `>=${promised}` } },
      'node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
      'node_modules/light-my-request/node_modules/cookie': { version: '1.1.1', engines: { node: '>=18' } },
      'node_modules/either': { version: '1.0.0', engines: { node: '^18.17.0 || >=20.5.0' } },
      'node_modules/old-manifest': { version: '1.0.0', engines: ['node >= 0.8'] },
      'node_modules/no-engines': { version: '1.0.0' },
    },
  };
  t.same(refusing(lock, fullVersion(promised)), ['node_modules/cookie@2.0.2 needs node >=22']);
});
