import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { escapePointer, openAiDescription, type SchemaNode } from './openai-openapi-description.js';
import { openAiSchemaAllowances, type SchemaAllowance } from './openai-schema-allowances.js';

const documentId = 'https://openai-openapi.description/';

/**
 * Keywords of the description that validate nothing, declared so Ajv's strict mode still
 * refuses any other unknown keyword (a 3.0 leftover the reader does not rewrite would otherwise
 * pass silently). `components` holds the schemas; `discriminator` and `example` are OpenAPI
 * annotations (the unions they sit on are `anyOf`/`oneOf`, which decide alone);
 * `dataDescription` is prose; `min_items`, `max_items` and `optional` are slips of the
 * description itself (a grader's `range.items`, a transcription's `logprobs`) that, not being
 * JSON Schema, say nothing.
 */
const annotationKeywords = ['components', 'discriminator', 'example', 'dataDescription', 'min_items', 'max_items', 'optional'];

/** OpenAPI's type formats (`int64`, `double`...), `unixtime` and `binary`: notes on a `type` that already says what is checked. */
const annotationFormats = ['binary', 'unixtime', 'int32', 'int64', 'float', 'double'];

/** Every `x-…` extension key of the description: OpenAPI extensions never validate. */
function extensionKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) extensionKeywords(item, found);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

const unescapePointer = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** The keyword that opens an allowance's branch only while a check passes that allowance. */
export const allowanceGate = 'x-gateway-allowance';

/**
 * The component schemas with each allowance's node replaced by `anyOf: [the node, {gate, ...what
 * it accepts}]`, the gate shut unless the check passes the allowance; only the components
 * touched are copied.
 */
export function withAllowances(schemas: Record<string, SchemaNode>, allowances: readonly SchemaAllowance[]): Record<string, SchemaNode> {
  const result = { ...schemas };
  for (const allowance of allowances) {
    const [empty, components, schemasKey, name = '', ...path] = allowance.at.split('/').map(unescapePointer);
    const component = result[name];
    if (empty !== '' || components !== 'components' || schemasKey !== 'schemas' || component === undefined) {
      throw new Error(`allowance ${allowance.name}: ${allowance.at} names no component schema`);
    }
    const copy: SchemaNode = { root: structuredClone(component) };
    let parent = copy;
    for (const segment of ['root', ...path].slice(0, -1)) {
      const child = parent[segment];
      if (child === null || typeof child !== 'object') throw new Error(`allowance ${allowance.name}: ${allowance.at} is not in the description`);
      parent = child as SchemaNode;
    }
    const last = ['root', ...path].at(-1) as string;
    if (!(last in parent)) throw new Error(`allowance ${allowance.name}: ${allowance.at} is not in the description`);
    parent[last] = { anyOf: [parent[last], { [allowanceGate]: allowance.name, ...allowance.accepts }] };
    result[name] = copy.root as SchemaNode;
  }
  return result;
}

/**
 * The description compiled by Ajv (JSON Schema 2020-12, ajv-formats for `uri` and dates), every
 * allowance in place behind its gate, and what the explanation of a failure needs to find its
 * way in it. Compiled once per process: the allowances a check passes open their gates while it
 * validates ({@link CompiledDescription.validate}).
 */
export class CompiledDescription {
  readonly #ajv: Ajv2020;
  readonly #document: SchemaNode;
  /** Each schema node of the document, to its JSON pointer: Ajv's verbose errors name the node object. */
  readonly #pointers = new WeakMap<object, string>();
  /** The names of the allowances whose gates are open: those of the check running now. */
  #open = new Set<string>();

  constructor(allowances: readonly SchemaAllowance[]) {
    const { schemas } = openAiDescription();
    // allErrors: a failure lists every difference at once, not the first; verbose: each error
    // names its schema node, which the explanation of unions follows. Strict types, tuples and
    // `required` would judge the style of OpenAI's schemas, not the gateway's answers.
    this.#ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, strictTuples: false, strictRequired: false });
    addFormats.default(this.#ajv, ['uri', 'date', 'date-time', 'email']);
    for (const format of annotationFormats) this.#ajv.addFormat(format, true);
    for (const keyword of [...annotationKeywords, ...extensionKeywords(schemas)]) this.#ajv.addKeyword(keyword);
    this.#ajv.addKeyword({ keyword: allowanceGate, schemaType: 'string', errors: false, validate: (name: string) => this.#open.has(name) });
    this.#document = { $id: documentId, components: { schemas: withAllowances(schemas, allowances) } };
    this.#index(this.#document, '');
    this.#ajv.addSchema(this.#document);
  }

  #index(node: unknown, pointer: string): void {
    if (node === null || typeof node !== 'object') return;
    this.#pointers.set(node, pointer);
    for (const [key, child] of Object.entries(node)) this.#index(child, `${pointer}/${escapePointer(key)}`);
  }

  /** The validator of the node at `pointer` (`/components/schemas/Response`, or any node inside); call it inside {@link CompiledDescription.validate}. */
  validatorAt(pointer: string): ValidateFunction {
    return this.#ajv.getSchema(`${documentId}#${pointer}`) as ValidateFunction;
  }

  /** Runs `check` (which validates, synchronously) with the gates of `allowances` open, and only those. */
  validate<Result>(allowances: readonly SchemaAllowance[], check: () => Result): Result {
    for (const allowance of allowances) {
      if (!Object.values(openAiSchemaAllowances).some((known) => known.name === allowance.name)) {
        throw new Error(`allowance ${allowance.name} is not in openAiSchemaAllowances: add it there, and to docs/routes.md`);
      }
    }
    this.#open = new Set(allowances.map((allowance) => allowance.name));
    try {
      return check();
    } finally {
      this.#open = new Set();
    }
  }

  /** The JSON pointer of a schema node of the document. */
  pointerOf(node: unknown): string | undefined {
    return node !== null && typeof node === 'object' ? this.#pointers.get(node) : undefined;
  }

  /** The node at `pointer`. */
  nodeAt(pointer: string): SchemaNode {
    let node: unknown = this.#document;
    for (const segment of pointer.split('/').slice(1)) node = (node as SchemaNode)[unescapePointer(segment)];
    return node as SchemaNode;
  }

  /** The node at `pointer` with its `$ref`s followed. */
  resolvedAt(pointer: string): SchemaNode {
    let node = this.nodeAt(pointer);
    for (let hops = 0; typeof node.$ref === 'string' && hops < 20; hops += 1) node = this.nodeAt(node.$ref.slice(1));
    return node;
  }

  /**
   * The values the node at `pointer` allows for the property `tag`, when it holds it to a
   * `const` or an `enum` (directly, through `$ref`s or in an `allOf` member); `undefined` when it
   * does not say.
   */
  tagValues(pointer: string, tag: string): unknown[] | undefined {
    const node = this.resolvedAt(pointer);
    const property = (node.properties as Record<string, SchemaNode> | undefined)?.[tag];
    if (property !== undefined) {
      const resolved = typeof property.$ref === 'string' ? this.resolvedAt(property.$ref.slice(1)) : property;
      if ('const' in resolved) return [resolved.const];
      if (Array.isArray(resolved.enum)) return resolved.enum;
    }
    const members = Array.isArray(node.allOf) ? node.allOf : [];
    for (const [index] of members.entries()) {
      const values = this.tagValues(`${this.pointerOf(node)}/allOf/${index}`, tag);
      if (values !== undefined) return values;
    }
    return undefined;
  }
}

let compiled: CompiledDescription | undefined;

/** The compiled description with every allowance of {@link openAiSchemaAllowances} behind its gate, built once per process. */
export function compiledDescription(): CompiledDescription {
  compiled ??= new CompiledDescription(Object.values(openAiSchemaAllowances));
  return compiled;
}
