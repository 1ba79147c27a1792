import { isRecord } from '../../core/kit/index.js';

// Keys whose value is one schema, a map of schemas, or a list of schemas.
const oneSchema = new Set(['items', 'not', 'additionalProperties']);
const schemaMap = new Set(['properties', '$defs', 'definitions']);
const schemaList = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);

/**
 * A native `Schema` (the OpenAPI subset of `parameters` and `responseSchema`, upstreams.md
 * §1.2) as the JSON Schema chat completions take: `type` in lower case (`OBJECT` → `object`;
 * `TYPE_UNSPECIFIED` dropped), `nullable: true` folded into the type (`["string", "null"]`),
 * and `propertyOrdering`, a native ordering hint with no JSON Schema meaning, left out. Every
 * other keyword (`description`, `enum`, `required`, `format`, bounds) is the same in both and
 * kept, nested schemas converted alike. The `@google/genai` SDK writes these upper-case types
 * (fixture genai-sdk-requests.json, chat-function-round-trip).
 */
export function toJsonSchema(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const converted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'propertyOrdering' || key === 'nullable') continue;
    if (key === 'type') {
      const type = typeof value === 'string' ? value.toLowerCase() : value;
      if (type !== 'type_unspecified') converted.type = type;
    } else if (oneSchema.has(key)) converted[key] = toJsonSchema(value);
    else if (schemaList.has(key) && Array.isArray(value)) converted[key] = value.map(toJsonSchema);
    else if (schemaMap.has(key) && isRecord(value)) converted[key] = Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, toJsonSchema(entry)]));
    else converted[key] = value;
  }
  if (schema.nullable === true && typeof converted.type === 'string') converted.type = [converted.type, 'null'];
  return converted;
}
