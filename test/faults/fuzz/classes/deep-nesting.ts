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

/**
 * Around the limit (a request may land just under or just over it), or far above it: mostly
 * deeper than the few thousand levels at which recursive code (`JSON.stringify`) runs out
 * of stack, the depth that once made a channel fail.
 */
function depthOf(random: SeededRandom): number {
  if (random.chance(0.4)) return random.between(limit - 8, limit + 8);
  return random.chance(0.25) ? random.between(100, 2_000) : random.between(3_000, 20_000);
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

/** A field a route passes on to its upstream without reading it all: `extra` puts it in the body, `path` leads into it. */
interface Carrier {
  extra: Record<string, unknown>;
  path: Array<string | number>;
}

const chatCarriers: Carrier[] = [
  { extra: { extra_body: { gx: { generationConfig: { responseMimeType: 'application/json' } } } }, path: ['extra_body', 'gx', 'generationConfig', 'responseSchema'] },
  { extra: { extra_body: { gx: {} } }, path: ['extra_body', 'gx', 'toolConfig'] },
  { extra: { tools: [{ type: 'function', function: { name: 'lookup', parameters: {} } }] }, path: ['tools', 0, 'function', 'parameters'] },
  { extra: { response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: {} } } }, path: ['response_format', 'json_schema', 'schema'] },
];

const nativeCarriers: Carrier[] = [
  { extra: { generationConfig: { responseMimeType: 'application/json' } }, path: ['generationConfig', 'responseSchema'] },
  { extra: { tools: [{ functionDeclarations: [{ name: 'lookup', parameters: {} }] }] }, path: ['tools', 0, 'functionDeclarations', 0, 'parameters'] },
  { extra: {}, path: ['contents', 0, 'parts', 0] },
];

const responsesCarriers: Carrier[] = [
  { extra: {}, path: ['tools', 0, 'parameters'] },
  { extra: { text: { format: { type: 'json_schema', name: 'answer', schema: {} } } }, path: ['text', 'format', 'schema'] },
];

/** Where the route would carry deep JSON furthest; an unknown field where it has no such place. */
function carriersOf(route: FuzzRoute): Carrier[] {
  if (route.path === '/v1/chat/completions') return chatCarriers;
  if (route.path === '/v1/responses') return responsesCarriers;
  if (route.dialect === 'native') return nativeCarriers;
  return [{ extra: {}, path: ['metadata'] }, { extra: {}, path: ['unknown_field'] }];
}

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
  if (choice < 2) {
    const inside = allPaths(parts.json).slice(1);
    return withRawJson(parts, inside.length > 0 ? random.pick(inside) : ['deep'], deep);
  }
  if (choice < 6) {
    const carrier = random.pick(carriersOf(route));
    return withRawJson({ ...parts, json: { ...parts.json, ...carrier.extra } }, carrier.path, deep);
  }
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
