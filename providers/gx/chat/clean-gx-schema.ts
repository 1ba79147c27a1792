
import { isRecord } from '../../../core/kit/index.js';
// The native `responseSchema` and function `parameters` take an OpenAPI subset, and the
// upstream answers 400 to any other key (additionalProperties, $schema, ...). The kept keys
// are the native Schema object's fields (reference-gateway.md §4.4, upstreams.md §1.2);
// these are copied as they are, `type` and `format` are read below.
const keptKeys = new Set([
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'default',
  'minimum',
  'maximum',
  'propertyOrdering',
]);

// The native Schema knows these formats only; others (email, uri, ...) are left out.
const supportedFormats = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);

const maximumDepth = 64;

type JsonObject = Record<string, unknown>;

interface CleanContext {
  root: JsonObject;
  /** `$ref`s being inlined on the current path, to stop on recursive definitions. */
  resolving: Set<string>;
}

/** The definition a local `$ref` (`#/$defs/Name`, `#/definitions/Name`) points at. */
function resolveReference(reference: string, root: JsonObject): JsonObject | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(reference);
  if (match === null) return undefined;
  const definitions = root[match[1] ?? ''];
  if (!isRecord(definitions)) return undefined;
  const name = (match[2] ?? '').replaceAll('~1', '/').replaceAll('~0', '~');
  const target = definitions[name];
  return isRecord(target) ? target : undefined;
}

function isNullSchema(schema: unknown): boolean {
  return isRecord(schema) && schema.type === 'null' && Object.keys(schema).every((key) => key === 'type' || key === 'description');
}

/** Merges `anyOf`/`oneOf` members: a `null` member becomes `nullable`, a single rest is inlined. */
function cleanAlternatives(members: unknown[], result: JsonObject, context: CleanContext, depth: number): void {
  const rest = members.filter((member) => !isNullSchema(member));
  if (rest.length < members.length) result.nullable = true;
  const cleaned = rest.filter(isRecord).map((member) => cleanSchema(member, context, depth + 1));
  if (cleaned.length === 1) Object.assign(result, cleaned[0], result.nullable === true ? { nullable: true } : {});
  else if (cleaned.length > 1) result.anyOf = cleaned;
}

function cleanSchema(schema: JsonObject, context: CleanContext, depth: number): JsonObject {
  if (depth > maximumDepth) return typeof schema.type === 'string' ? { type: schema.type } : {};
  if (typeof schema.$ref === 'string') {
    const target = resolveReference(schema.$ref, context.root);
    if (target === undefined) return {};
    if (context.resolving.has(schema.$ref)) return { type: typeof target.type === 'string' ? target.type : 'object' };
    context.resolving.add(schema.$ref);
    const inlined = cleanSchema(target, context, depth + 1);
    context.resolving.delete(schema.$ref);
    // Siblings of $ref (a description, say) refine the definition.
    const { $ref: _reference, ...siblings } = schema;
    return { ...inlined, ...cleanSchema(siblings, context, depth + 1) };
  }

  const result: JsonObject = {};
  if (Array.isArray(schema.allOf)) {
    for (const member of schema.allOf) {
      if (!isRecord(member)) continue;
      const cleaned = cleanSchema(member, context, depth + 1);
      const properties = { ...(isRecord(result.properties) ? result.properties : {}), ...(isRecord(cleaned.properties) ? cleaned.properties : {}) };
      const required = [...(Array.isArray(result.required) ? result.required : []), ...(Array.isArray(cleaned.required) ? cleaned.required : [])];
      Object.assign(result, cleaned);
      if (Object.keys(properties).length > 0) result.properties = properties;
      if (required.length > 0) result.required = [...new Set(required)];
    }
  }
  for (const [key, value] of Object.entries(schema)) {
    if (keptKeys.has(key)) result[key] = value;
  }

  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type): type is string => typeof type === 'string');
    const nonNull = types.filter((type) => type !== 'null');
    if (nonNull.length < types.length) result.nullable = true;
    if (nonNull.length === 1) result.type = nonNull[0];
    else if (nonNull.length > 1) result.anyOf = nonNull.map((type) => ({ type }));
  } else if (typeof schema.type === 'string') {
    result.type = schema.type;
  }
  if (typeof schema.format === 'string' && supportedFormats.has(schema.format)) result.format = schema.format;
  if (schema.const !== undefined && result.enum === undefined) result.enum = [schema.const];

  if (isRecord(schema.properties)) {
    const properties: JsonObject = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      // Property names are data, not keywords: a property called "additionalProperties" stays.
      if (isRecord(property)) properties[name] = cleanSchema(property, context, depth + 1);
    }
    if (Object.keys(properties).length > 0) result.properties = { ...(isRecord(result.properties) ? result.properties : {}), ...properties };
  }
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter((name): name is string => typeof name === 'string');
    if (required.length > 0) result.required = [...new Set([...(Array.isArray(result.required) ? result.required : []), ...required])];
  }
  if (isRecord(schema.items)) result.items = cleanSchema(schema.items, context, depth + 1);
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives !== undefined) cleanAlternatives(alternatives, result, context, depth);
  return result;
}

/**
 * Turns a client's JSON Schema into the native schema subset: unknown keys removed at every
 * level (property names are kept), local `$ref`s inlined (a recursive one stops at its
 * type), `type: [x, "null"]` and a `null` member of `anyOf`/`oneOf` become `nullable`,
 * `oneOf` becomes `anyOf`, `allOf` is merged, `const` becomes a one-value `enum`, formats the
 * native schema lacks are dropped, and an empty `properties` map is left out.
 */
export function cleanGxSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return cleanSchema(schema, { root: schema, resolving: new Set() }, 0);
}

/** True for an object schema without properties: function `parameters` are then left out. */
export function isEmptyObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' && (!isRecord(schema.properties) || Object.keys(schema.properties).length === 0) && schema.anyOf === undefined;
}
