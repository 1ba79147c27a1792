import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the built console, held in memory with what its answer needs. */
export interface ConsoleFile {
  body: Buffer;
  /** The same bytes gzipped, when that saves anything. */
  gzipped: Buffer | undefined;
  type: string;
  etag: string;
}

/** The built console: its page and its hashed assets by file name. */
export interface ConsoleBuild {
  index: ConsoleFile;
  assets: ReadonlyMap<string, ConsoleFile>;
}

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

function consoleFile(path: string): ConsoleFile {
  const body = readFileSync(path);
  const type = contentTypes[extname(path)] ?? 'application/octet-stream';
  // Text compresses to a third or less; an image or font is already compressed.
  const gzipped = type.startsWith('text/') || type.startsWith('application/json') || type === 'image/svg+xml' ? gzipSync(body, { level: 9 }) : undefined;
  return {
    body,
    gzipped: gzipped !== undefined && gzipped.length < body.length ? gzipped : undefined,
    type,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
  };
}

/**
 * Reads the console `npm run build` wrote (`index.html` and `assets/`) into memory once, so
 * serving it touches no disk: the whole build is some 125 KB. Undefined when the folder holds
 * no build (the gateway runs from its sources, or the build was skipped).
 */
export function readConsoleBuild(directory: string): ConsoleBuild | undefined {
  const indexFile = join(directory, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const assetsDirectory = join(directory, 'assets');
  const names = existsSync(assetsDirectory) ? readdirSync(assetsDirectory, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name) : [];
  return {
    index: consoleFile(indexFile),
    assets: new Map(names.map((name) => [name, consoleFile(join(assetsDirectory, name))])),
  };
}
