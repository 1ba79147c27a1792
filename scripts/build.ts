// `npm run build` (and `prepare`, so `npm ci` ends with a runnable `dist/`): transpiles the
// TypeScript of the build into `dist/` with esbuild, one JavaScript file and source map per
// source file, in the layout `tsc -p tsconfig.build.json` gave (`dist/server/main.js`,
// `dist/core/index.js`, ...), then builds the web console into `dist/console` with Vite. It
// checks no types: `npm test` and `npm run typecheck` run the full `tsc` (over the console
// too), and `npm run build:types` writes the `.d.ts` files (run by `prepack`).
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { buildConsole } from './build-console.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsconfig = 'tsconfig.build.json';

/** The folders `tsc -p tsconfig.build.json` compiled, read from that file so the two agree. */
function includedFolders(): string[] {
  const config = JSON.parse(readFileSync(join(root, tsconfig), 'utf8')) as { include: string[] };
  return config.include;
}

/**
 * Every TypeScript source under `folder` (not declaration files), relative to the root. An
 * installed package's sources are not ours: the side-by-side harness, set up in place, puts a
 * `node_modules` under `bench/` whose type tests would not build.
 */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(m|c)?ts$/.test(entry.name) && !/\.d\.(m|c)?ts$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(/[\\/]/).includes('node_modules'));
}

const common: BuildOptions = {
  absWorkingDir: root,
  // tsconfig.build.json brings `experimentalDecorators` (tsyringe's parameter decorators)
  // and the ES2022 class-field semantics tsc used.
  tsconfig,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
};

/**
 * The project files outside the included folders that the included ones import (the demo and
 * the benchmark run the fake upstreams of `test/fakes/`): tsc emitted those too. esbuild's own
 * resolver follows the imports in a bundle pass that writes nothing; packages stay outside.
 */
async function importedSources(entryPoints: string[]): Promise<string[]> {
  const result = await build({ ...common, entryPoints, bundle: true, packages: 'external', write: false, metafile: true, outdir: 'dist', logLevel: 'error' });
  return Object.keys(result.metafile.inputs).filter((file) => /\.(m|c)?ts$/.test(file) && !file.startsWith('node_modules/'));
}

const included = includedFolders().flatMap(sourcesUnder);
const sources = [...new Set([...included, ...(await importedSources(included))])].sort();
// Silent on success, as tsc was: `npm pack --json` and the like print the build's stdout.
await build({ ...common, entryPoints: sources, outdir: 'dist', outbase: '.', sourcemap: true, sourcesContent: false });
// The web console the gateway serves at /console (scripts/build-console.ts).
await buildConsole(join(root, 'dist', 'console'));
