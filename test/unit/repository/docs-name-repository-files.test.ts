import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// The README and docs/ name only what is in the repository, so a user with a clone can open
// every file and run every tool they point at: each relative link leads to a file of the
// repository (and a #fragment to a heading of it), each `path/in/backticks` under one of its
// top-level folders exists, and nothing points outside it (a sibling checkout, a machine's
// own folders). A path the repository says it generates (.gitignore) may be named.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const documents = ['README.md', 'bench/side-by-side/README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];

/** The top-level folders and files a repository path starts with (`core/…`, `.ci/run`). */
const topLevel = new Set(readdirSync(join(root)).filter((name) => name !== '.git' && name !== 'node_modules'));

/** What .gitignore names without a wildcard: folders and files the build, the tests and the gateway write. */
const generated = readFileSync(join(root, '.gitignore'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#') && !line.startsWith('!') && !line.includes('*'))
  .map((line) => line.replace(/^\//, '').replace(/\/$/, ''));
const isGenerated = (path: string) => generated.some((entry) => path === entry || path.startsWith(`${entry}/`));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = (heading as string)
      .replaceAll('`', '')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every problem of one document, as `document: what`. */
function problemsOf(document: string, text: string): string[] {
  const problems: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target as string)) continue;
    const [path = '', fragment] = (target as string).split('#');
    if (path === '') {
      if (fragment !== undefined && !anchorsOf(text).has(fragment)) problems.push(`${document}: the link ${target} names no heading of its own`);
      continue;
    }
    const file = resolve(root, dirname(document), path);
    if (relative(root, file).startsWith('..')) problems.push(`${document}: the link ${target} leads outside the repository`);
    else if (!existsSync(file)) problems.push(`${document}: the link ${target} leads to no file`);
    else if (fragment !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(fragment)) problems.push(`${document}: the link ${target} names no heading of ${relative(root, file)}`);
  }
  for (const [, quoted] of text.matchAll(/`([^`\s]+)`/g)) {
    const path = (quoted as string).replace(/[:,.;)]+$/, '');
    // A pattern or a placeholder (`providers/<family>/`, `docs/*.md`) names no one file.
    if (!path.includes('/') || !topLevel.has(path.split('/')[0] as string) || /[*{}<>$[\]]|\.\.\./.test(path)) continue;
    if (!existsSync(join(root, path)) && !isGenerated(path)) problems.push(`${document}: \`${path}\` is not in the repository`);
  }
  for (const [outside] of text.matchAll(/(?<![\w.])(?:\.\.\/)+shared\b[^\s`)]*|(?<![\w.])\/(?:work|home|root|Users)\/[^\s`)]*/g)) {
    problems.push(`${document}: ${outside} is outside the repository`);
  }
  return problems;
}

t.test('every file, link and heading the README and docs/ name is in the repository, and nothing outside it', async (t) => {
  t.ok(documents.length > 10, `the documents are found (${documents.length})`);
  t.same(
    documents.flatMap((document) => problemsOf(document, readFileSync(join(root, document), 'utf8'))),
    [],
  );
});

t.test('a link to no file, to a missing heading or out of the repository, and a path that is not there, are each found', async (t) => {
  const text = [
    'See [the routes](routes.md#channels-admin-api), [setup](../README.md#set-up) and [here](#a-heading), [nowhere](#no-heading).',
    '## A heading',
    'Broken: [gone](no-such-page.md), [anchor](routes.md#no-such-heading), [sibling](../../shared/bench/README.md).',
    'Files: `core/pipeline/model-request-pipeline.ts`, `bench/side-by-side/bench.sh`, `providers/<family>/index.ts`, `core/no-such-file.ts`,',
    '`test/artifacts/console/` (written by the browser tests), `../shared/bench/bench.sh` and `/work/notes/prof.sh`.',
  ].join('\n');
  t.same(problemsOf('docs/example.md', text), [
    'docs/example.md: the link #no-heading names no heading of its own',
    'docs/example.md: the link no-such-page.md leads to no file',
    'docs/example.md: the link routes.md#no-such-heading names no heading of docs/routes.md',
    'docs/example.md: the link ../../shared/bench/README.md leads outside the repository',
    'docs/example.md: `core/no-such-file.ts` is not in the repository',
    'docs/example.md: ../../shared/bench/README.md is outside the repository',
    'docs/example.md: ../shared/bench/bench.sh is outside the repository',
    'docs/example.md: /work/notes/prof.sh is outside the repository',
  ]);
});
