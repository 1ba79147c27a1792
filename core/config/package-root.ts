import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The root folder of the package this module belongs to: the nearest folder above with a
 * package.json. The same code finds it from the sources (`core/config/`), the build
 * (`dist/core/config/`) and an installed package, so files shipped beside the code
 * (`config/price-catalog.yaml`, `dist/console/`) are found from any of them.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('model-gateway: no package.json above the package-root module');
    directory = parent;
  }
  root = directory;
  return root;
}
