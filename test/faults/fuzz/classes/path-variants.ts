import type { LightMyRequestResponse } from 'fastify';
import { dialectOfErrorBody } from '../error-shape.js';
import { assemble, validParts } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';
import type { SeededRandom } from '../seeded-random.js';

const unreserved = /^[A-Za-z0-9._~-]$/;

/** A character as a percent-escape, in upper- or lower-case hex. */
const escaped = (random: SeededRandom, character: string) => {
  const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
  return `%${random.chance(0.5) ? hex.toUpperCase() : hex}`;
};

/**
 * Another spelling of a path that names the same route: some characters percent-encoded,
 * letters in another case, slashes doubled. Escapes already in the path stay whole.
 * (The absolute form is left to test/integration/authentication-by-route.test.ts: `inject`
 * rewrites an absolute URL to its path, so only a real connection can send one.)
 */
function respelled(random: SeededRandom, path: string): string {
  let pieces: string[] = path.match(/%[0-9A-Fa-f]{2}|[^]/g) ?? [];
  const ways = new Set(Array.from({ length: random.between(1, 3) }, () => random.pick(['case', 'encode', 'slashes'] as const)));
  if (ways.has('case')) pieces = pieces.map((piece) => (piece.length === 1 && random.chance(0.5) ? (piece === piece.toUpperCase() ? piece.toLowerCase() : piece.toUpperCase()) : piece));
  if (ways.has('encode')) pieces = pieces.map((piece) => (unreserved.test(piece) && random.chance(0.3) ? escaped(random, piece) : piece));
  if (ways.has('slashes')) pieces = pieces.map((piece) => (piece === '/' && random.chance(0.5) ? '/'.repeat(random.between(2, 4)) : piece));
  const spelled = pieces.join('');
  // At least one change: the first letter of the path, encoded.
  return spelled === path ? path.replace(/[A-Za-z]/, (letter) => escaped(random, letter)) : spelled;
}

/**
 * Path variants: the route's valid request without its credentials, on another spelling of
 * its path. A route that takes a key or login token must answer 401 in its own dialect,
 * exactly as on the plain path; none may reach a handler.
 */
export const pathVariants: InputClass = {
  name: 'path-variants',
  seed: 0x5eed0007,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    delete parts.headers.authorization;
    const request = assemble(parts);
    const [path = '', query] = request.url.split('?');
    request.url = query === undefined ? respelled(random, path) : `${respelled(random, path)}?${query}`;
    return request;
  },
  check(route, response: LightMyRequestResponse) {
    if (route.auth === 'none') return undefined;
    if (response.statusCode !== 401) return `answered ${response.statusCode} without credentials, not 401`;
    const dialect = dialectOfErrorBody(response.json());
    return dialect === route.dialect ? undefined : `a 401 in the ${String(dialect)} shape, not ${route.dialect}`;
  },
};
