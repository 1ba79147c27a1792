import type { SeededRandom } from '../seeded-random.js';
import { allPaths, assemble, stringPaths, urlOf, validParts, withValueAt, type FuzzRequest, type RequestParts } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';
import { withRawJson } from '../raw-json.js';
import type { FuzzRoute } from '../fuzz-routes.js';

// Made once and sliced: building megabytes of text per case would make the fuzz slow, not the gateway.
const openArrays = '['.repeat(20_000);
const closeArrays = ']'.repeat(20_000);
const openObjects = '{"k":'.repeat(20_000);
const closeObjects = '}'.repeat(20_000);
const openMixed = '[{"k":'.repeat(10_000);
const closeMixed = '}]'.repeat(10_000);

/** The default `server.max_json_depth`. */
const limit = 64;

/** Around the limit (a request may land just under or just over it), or far above it. */
function depthOf(random: SeededRandom): number {
  return random.chance(0.5) ? random.between(limit - 8, limit + 8) : random.pick([random.between(100, 1_000), random.between(1_000, 20_000)]);
}

/** JSON text nesting `depth` levels: arrays, objects, arrays of objects, or a deep branch among shallow ones. */
function deepText(random: SeededRandom, depth: number): string {
  switch (random.int(4)) {
    case 0:
      return openArrays.slice(0, depth) + closeArrays.slice(0, depth);
    case 1:
      return `${openObjects.slice(0, 5 * depth)}0${closeObjects.slice(0, depth)}`;
    case 2: {
      const pairs = Math.ceil(depth / 2);
      return `${openMixed.slice(0, 6 * pairs)}0${closeMixed.slice(0, 2 * pairs)}`;
    }
    default:
      return `[1,"x",{"a":[]},${openArrays.slice(0, depth - 1)}${closeArrays.slice(0, depth - 1)},null]`;
  }
}

/** Fields a route passes on without reading (or rejects as unknown), where deep JSON would travel furthest. */
const passThroughPaths: Array<Array<string | number>> = [
  ['metadata'],
  ['extra_body', 'gx', 'generationConfig'],
  ['extra_body', 'gx', 'toolConfig'],
  ['tools', 0, 'function', 'parameters'],
  ['tools', 0, 'parameters'],
  ['response_format', 'json_schema', 'schema'],
  ['generationConfig', 'responseSchema'],
  ['text', 'format', 'schema'],
  ['unknown_field'],
];

/** A chat body whose conversation carries a tool call and a tool result holding deep JSON as text. */
function deepToolConversation(parts: RequestParts, deep: string, random: SeededRandom): FuzzRequest {
  const json = parts.json as { messages?: unknown[] };
  const call = { id: 'call_deep', type: 'function', function: { name: 'lookup', arguments: random.chance(0.5) ? deep : '{"q":1}' } };
  const messages = [...(json.messages ?? []), { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: 'call_deep', content: random.chance(0.5) ? deep : 'ok' }];
  return assemble({ ...parts, json: { ...parts.json, messages } });
}

/** Native contents with function responses nesting about `depth` JSON levels of parts. */
function nestedFunctionResponses(parts: RequestParts, depth: number): FuzzRequest {
  const levels = Math.max(1, Math.ceil(depth / 3));
  const nested = '{"functionResponse":{"name":"f","response":{},"parts":['.repeat(levels) + '{"text":"x"}' + ']}}'.repeat(levels);
  return withRawJson(parts, ['contents', 0, 'parts', 0], nested);
}

function deepJsonRequest(random: SeededRandom, route: FuzzRoute, parts: RequestParts): FuzzRequest {
  const depth = depthOf(random);
  const deep = deepText(random, depth);
  const choice = random.int(10);
  if (choice < 3) {
    const inside = allPaths(parts.json).slice(1);
    return withRawJson(parts, inside.length > 0 ? random.pick(inside) : ['deep'], deep);
  }
  if (choice < 6) return withRawJson(parts, random.pick(passThroughPaths), deep);
  if (choice < 7) return { ...assemble(parts), payload: deep };
  if (choice < 8 && route.path === '/v1/chat/completions') return deepToolConversation(parts, deep, random);
  if (choice < 8 && route.dialect === 'native' && route.name.includes('enerate')) return nestedFunctionResponses(parts, depth);
  // Deep JSON as the text of a string field: only what parses strings as JSON may see it.
  const strings = stringPaths(parts.json);
  return assemble({ ...parts, json: withValueAt(parts.json, strings.length > 0 ? random.pick(strings) : ['deep'], deep) as Record<string, unknown> });
}

/**
 * Deep nesting: arrays and objects nested around the default `server.max_json_depth` (64)
 * and far above it, in the route's own fields, in fields passed on to upstreams, as the whole
 * body, as JSON inside strings (tool-call arguments, tool results, form fields) and as
 * bracketed query keys. Deep bodies must be refused in the route's dialect, never a 5xx.
 */
export const deepNesting: InputClass = {
  name: 'deep-nesting',
  seed: 0x5eedd3e9,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    if (parts.json !== undefined && random.chance(0.85)) return deepJsonRequest(random, route, parts);
    if (parts.form !== undefined && random.chance(0.8)) {
      const fields = { ...parts.form.fields, [random.pick([...Object.keys(parts.form.fields), 'contents', 'metadata', 'sequential_image_generation_options'])]: deepText(random, depthOf(random)) };
      return assemble({ ...parts, form: { ...parts.form, fields } });
    }
    if (route.method !== 'GET' && random.chance(0.7)) {
      // A route without a JSON body still parses one when it comes.
      return { ...assemble({ ...parts, form: undefined }), headers: { ...parts.headers, 'content-type': 'application/json' }, payload: deepText(random, depthOf(random)) };
    }
    const key = `q${'[k]'.repeat(random.between(limit - 8, 2_000))}`;
    return { ...assemble(parts), url: `${urlOf(parts)}${Object.keys(parts.query).length > 0 ? '&' : '?'}${key}=1` };
  },
};
