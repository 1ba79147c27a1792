import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The side-by-side benchmark behind every ratio docs/benchmark.md quotes lives in the
// repository, so a user with a clone can reproduce each figure: every file its README lists is
// there, and none of its files reaches for a tool outside the repository.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const harness = join(root, 'bench/side-by-side');

/** The names in backticks of the first column of the README's table of files. */
function listedFiles(): string[] {
  return readFileSync(join(harness, 'README.md'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1] as string));
}

t.test('every file the harness README lists is in bench/side-by-side: the entry, the fake upstream, the bare proxies, the Portkey setup, the ratios', async (t) => {
  const listed = listedFiles();
  for (const expected of ['bench.sh', 'setup.sh', 'run.sh', 'fake-upstream.mjs', 'baseline-proxy.mjs', 'lib/ratios.mjs']) t.ok(listed.includes(expected), `the README lists ${expected}`);
  t.same(
    listed.filter((file) => !existsSync(join(harness, file))),
    [],
    'and each one is there',
  );
});

t.test('no file of the harness names a path outside the repository', async (t) => {
  const files = readdirSync(harness, { recursive: true, encoding: 'utf8' }).filter(
    (file) => !file.split('/').some((part) => ['node_modules', 'peers', 'results'].includes(part)) && /\.(sh|mjs|js|lua|md|json)$/.test(file) && !file.endsWith('package-lock.json'),
  );
  t.ok(files.includes('run.sh'), 'the harness files are read');
  t.same(
    files.filter((file) => /(?<![\w.])(?:\.\.\/)+shared\b|\/work\//.test(readFileSync(join(harness, file), 'utf8'))),
    [],
  );
});
