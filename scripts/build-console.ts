// Builds the web console (console/) with Vite into a folder the gateway serves at /console:
// `index.html` and `assets/` with content-hashed names. `npm run build` writes it to
// dist/console (scripts/build.ts); the browser tests build it once into a folder of their own.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** The console's sources: `console/index.html` and `console/src/`. */
export const consoleSourceDirectory = fileURLToPath(new URL('../console', import.meta.url));

/** Builds the console into `outDir` (emptied first). Prints only warnings and errors. */
export async function buildConsole(outDir: string): Promise<void> {
  await build({
    configFile: false,
    root: consoleSourceDirectory,
    base: '/console/',
    publicDir: false,
    logLevel: 'warn',
    // Preact's automatic JSX runtime, with Vite's own transformer: no Babel, no preset plugin.
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
    build: {
      outDir,
      emptyOutDir: true,
      assetsDir: 'assets',
      // Nothing inlined as a data: URI or a <style>: every asset is a file the CSP allows.
      assetsInlineLimit: 0,
      // Every browser the console supports has <link rel=modulepreload>.
      modulePreload: { polyfill: false },
      target: 'es2022',
      reportCompressedSize: false,
    },
  });
}
