import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** OpenAI's published OpenAPI description, copied unmodified (test/openapi/README.md says which). */
export const openAiDescriptionFile = fileURLToPath(new URL('../openapi/openai-openapi.yaml', import.meta.url));

/** A JSON Schema node, as the description writes one. */
export type SchemaNode = Record<string, unknown>;

/**
 * Keys whose value is data, not a schema: walking into them would rewrite an example that
 * happens to hold a key named like a keyword.
 */
const dataKeys = new Set(['example', 'examples', 'default', 'enum', 'const', 'discriminator']);

/** Keys whose value maps names (of properties, definitions) to schemas: the names are kept as they are. */
const schemaMapKeys = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * One schema of the description rewritten into plain JSON Schema 2020-12, for the OpenAPI 3.0
 * leftovers a 3.1 document still carries (the description's `openapi` is 3.1.0, yet 110 of its
 * schemas say `nullable`):
 *
 * - `nullable: true` means "null, or the schema" (OpenAPI 3.0): the node becomes
 *   `anyOf: [{ type: 'null' }, node]`, which also covers a `nullable` beside `$ref`, `anyOf`
 *   or `enum`, where adding `'null'` to `type` would not; `nullable: false` says nothing;
 * - a boolean `exclusiveMinimum` / `exclusiveMaximum` (3.0) turns its `minimum` / `maximum`
 *   exclusive, the number form of 2020-12;
 * - `$recursiveRef: '#'` (draft 2019-09, in `CompoundFilter`) points at the nearest schema
 *   with `$recursiveAnchor: true`, which a `$ref` to that schema's pointer says in 2020-12.
 *
 * `pointer` is the node's JSON pointer in the document, `anchor` the pointer of the nearest
 * enclosing `$recursiveAnchor`.
 */
export function toJsonSchema(node: unknown, pointer: string, anchor?: string): unknown {
  if (Array.isArray(node)) return node.map((item, index) => toJsonSchema(item, `${pointer}/${index}`, anchor));
  if (node === null || typeof node !== 'object') return node;
  const schema = node as SchemaNode;
  const recursiveAnchor = schema.$recursiveAnchor === true ? pointer : anchor;
  const rewritten: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === '$recursiveAnchor') continue;
    if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') continue;
    if (key === '$recursiveRef') {
      if (value !== '#' || recursiveAnchor === undefined) throw new Error(`${pointer}: a $recursiveRef this reader does not resolve`);
      rewritten.$ref = `#${recursiveAnchor}`;
    } else if (key === 'minimum' && schema.exclusiveMinimum === true) rewritten.exclusiveMinimum = value;
    else if (key === 'maximum' && schema.exclusiveMaximum === true) rewritten.exclusiveMaximum = value;
    else if (dataKeys.has(key) || key.startsWith('x-')) rewritten[key] = value;
    else if (schemaMapKeys.has(key) && value !== null && typeof value === 'object') {
      rewritten[key] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, toJsonSchema(child, `${pointer}/${key}/${escapePointer(name)}`, recursiveAnchor)]),
      );
    } else rewritten[key] = toJsonSchema(value, `${pointer}/${key}`, recursiveAnchor);
  }
  return schema.nullable === true ? { anyOf: [{ type: 'null' }, rewritten] } : rewritten;
}

/** A name as one segment of a JSON pointer (RFC 6901). */
export function escapePointer(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The description's `info.version` and every component schema, as JSON Schema 2020-12. */
export interface OpenAiDescription {
  version: string;
  schemas: Record<string, SchemaNode>;
}

let description: OpenAiDescription | undefined;

function readDescription(source: Buffer): OpenAiDescription {
  const document = parse(source.toString('utf8')) as { info: { version: string }; components: { schemas: Record<string, unknown> } };
  const schemas = Object.fromEntries(
    Object.entries(document.components.schemas).map(([name, schema]) => [name, toJsonSchema(schema, `/components/schemas/${escapePointer(name)}`) as SchemaNode]),
  );
  return { version: document.info.version, schemas };
}

/**
 * The description, read once per process and its component schemas rewritten with
 * {@link toJsonSchema}. Parsing its 3 MB of YAML takes seconds of CPU, so what it reads to is
 * kept as JSON in the system's temporary folder, under a name made of the hashes of the
 * description and of this file (a changed reader never reads an old result), and read from
 * there by the next test process.
 */
export function openAiDescription(): OpenAiDescription {
  if (description !== undefined) return description;
  const source = readFileSync(openAiDescriptionFile);
  const key = createHash('sha256').update(source).update(readFileSync(fileURLToPath(import.meta.url))).digest('hex').slice(0, 24);
  const kept = join(tmpdir(), `model-gateway-openai-description-${key}.json`);
  try {
    description = JSON.parse(readFileSync(kept, 'utf8')) as OpenAiDescription;
  } catch {
    description = readDescription(source);
    // Written aside and renamed, so a process reading it at the same time never sees half of it.
    const aside = `${kept}.${process.pid}`;
    writeFileSync(aside, JSON.stringify(description));
    renameSync(aside, kept);
  }
  return description;
}
