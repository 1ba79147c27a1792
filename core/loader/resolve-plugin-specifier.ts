import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const builtInDirectory = fileURLToPath(new URL('../../providers/', import.meta.url));

/** Where a `providers[].plugin` value points, and how it was read. */
export interface ResolvedPlugin {
  kind: 'built-in' | 'path' | 'package';
  /** A file URL to import. */
  url: string;
}

/**
 * Resolves a plugin specifier. A bare name that is a folder under `providers/` with an
 * index module is a built-in family; the core keeps no list of them, it only looks. A value
 * starting with `.` or `/` is a path relative to the config file. Anything else is an npm
 * package, resolved from the config file's folder as `require` would (so a package must
 * export a `default` or `require` condition).
 */
export function resolvePluginSpecifier(specifier: string, configFile: string): ResolvedPlugin {
  if (/^[a-z0-9][a-z0-9-]*$/.test(specifier)) {
    for (const extension of ['js', 'ts']) {
      const file = `${builtInDirectory}${specifier}/index.${extension}`;
      if (existsSync(file)) return { kind: 'built-in', url: pathToFileURL(file).href };
    }
  }
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const file = resolve(dirname(resolve(configFile)), specifier);
    if (!existsSync(file)) throw new Error(`no file at ${file}`);
    return { kind: 'path', url: pathToFileURL(file).href };
  }
  const require = createRequire(resolve(configFile));
  try {
    return { kind: 'package', url: pathToFileURL(require.resolve(specifier)).href };
  } catch {
    throw new Error(`"${specifier}" is neither a built-in family, a path (start it with ./), nor an installed package`);
  }
}
