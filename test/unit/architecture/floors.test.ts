import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import ts from 'typescript';

// The floors of docs/architecture.md, checked on the sources: core imports no floor above it;
// a provider imports core's two entries, the shared wire dialects and its own folder; a shared
// dialect imports core's entries and its own folder; a translator imports core's entries and
// other translators; and no module imports itself round a cycle (type-only imports included: a
// cycle of types still ties two files together for a reader).

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// `translators/` is a floor once it exists; until then the rules about it have nothing to judge.
const floors = ['core', 'plugins', 'providers', 'server', 'translators'].filter((floor) => existsSync(join(root, floor)));
/** The entries core publishes (`model-gateway` and `model-gateway/kit`): all a floor above it may import of core. */
const coreEntries = new Set(['core/index.ts', 'core/kit/index.ts']);
const shared = 'providers/shared/';
/** `providers/gx/`, `providers/shared/google-api/`: the folder a provider's or a dialect's file belongs to. */
const ownFolder = (file: string) => `${file.split('/').slice(0, file.startsWith(shared) ? 3 : 2).join('/')}/`;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(folder, file));
}

/** The repository-relative `.ts` files a file imports by relative path, statically or dynamically. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(root, resolve(root, dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

const graph = new Map(floors.flatMap(sourceFiles).map((file) => [file, importsOf(file)]));

/** Every import `file → target` that `breaks` a rule, as text for the failure report. */
const edges = (breaks: (file: string, target: string) => boolean): string[] =>
  [...graph].flatMap(([file, imports]) => imports.filter((target) => breaks(file, target)).map((target) => `${file} → ${target}`));

t.test('core imports nothing from plugins, providers, translators or the server', async (t) => {
  t.strictSame(edges((file, target) => file.startsWith('core/') && !target.startsWith('core/')), []);
});

t.test("a provider imports only core's entries, the shared dialects and files of its own folder", async (t) => {
  const allowed = (file: string, target: string) => coreEntries.has(target) || target.startsWith(shared) || target.startsWith(ownFolder(file));
  t.strictSame(edges((file, target) => file.startsWith('providers/') && !file.startsWith(shared) && !allowed(file, target)), []);
});

t.test("a shared dialect imports only core's entries and files of its own folder", async (t) => {
  t.strictSame(edges((file, target) => file.startsWith(shared) && !coreEntries.has(target) && !target.startsWith(ownFolder(file))), []);
});

t.test("a translator imports only core's entries and other translators' files", async (t) => {
  // Translators know formats, not vendors: no provider, no shared dialect, no core internals.
  t.strictSame(edges((file, target) => file.startsWith('translators/') && !coreEntries.has(target) && !target.startsWith('translators/')), []);
});

t.test('plugins and providers never import the server floor', async (t) => {
  t.strictSame(edges((file, target) => !file.startsWith('server/') && target.startsWith('server/')), []);
});

t.test('no module imports itself round a cycle', async (t) => {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (state.get(target) === 'open') cycles.push([...path.slice(path.indexOf(target)), target].join(' → '));
      else if (state.get(target) === undefined) visit(target);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  t.strictSame(cycles, []);
});

t.test('the check sees the imports it judges', async (t) => {
  // Guards the test itself: a resolver that found nothing would pass every check above.
  t.ok(graph.size > 300, `${graph.size} source files read`);
  t.ok(graph.get('providers/gp/index.ts')?.includes('core/index.ts'), 'gp imports core/index.ts');
  t.ok(graph.get('providers/gx/call-gx.ts')?.includes('providers/shared/google-api/google-api.ts'), 'gx imports its shared dialect');
  t.ok(graph.get('core/errors/gateway-error.ts')?.includes('core/errors/error-code-registry.ts'), 'a type-only import counts');
});

t.test('the published package ships every floor, the built web console, and no vendor fake', async (t) => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  t.strictSame(manifest.files.filter((entry) => entry.startsWith('dist/')).sort(), [...floors.map((floor) => `dist/${floor}`), 'dist/console'].sort());
  // The vendor fakes live in test/fakes; what core/testing ships must not reach them.
  t.strictSame(edges((file, target) => floors.some((floor) => file.startsWith(`${floor}/`)) && target.startsWith('test/')), []);
});
