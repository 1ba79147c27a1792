import { readFileSync } from 'node:fs';
import { isMap, isNode, LineCounter, parseDocument, type Document } from 'yaml';

/** The 1-based line of the deepest node along `path` that exists in the document (a missing key: its parent's). */
export function lineOf(document: Document, lineCounter: LineCounter, path: readonly PropertyKey[]): number | undefined {
  const segments = path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
  for (let length = segments.length; length > 0; length -= 1) {
    const node = document.getIn(segments.slice(0, length), true);
    if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
    if (length === segments.length) {
      const parent = document.getIn(segments.slice(0, length - 1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isNode(item.key) && String((item.key as { value?: unknown }).value) === segments[length - 1]);
        if (pair && isNode(pair.key) && pair.key.range) return lineCounter.linePos(pair.key.range[0]).line;
      }
    }
  }
  return undefined;
}

/**
 * Finds lines in a config file for problems found after it was loaded (a plugin that does not
 * load, an option its schema refuses, a setting that does not fit another), so every problem a
 * start reports carries its line as a schema problem does. The file is read and parsed on the
 * first lookup only; a file that cannot be read gives no lines.
 */
export function configLineFinder(file: string): (path: readonly PropertyKey[]) => number | undefined {
  let parsed: { document: Document; lineCounter: LineCounter } | null | undefined;
  return (path) => {
    if (parsed === undefined) {
      try {
        const lineCounter = new LineCounter();
        parsed = { document: parseDocument(readFileSync(file, 'utf8'), { lineCounter }), lineCounter };
      } catch {
        parsed = null;
      }
    }
    return parsed === null ? undefined : lineOf(parsed.document, parsed.lineCounter, path);
  };
}
