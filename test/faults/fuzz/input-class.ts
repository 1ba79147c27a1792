import type { LightMyRequestResponse } from 'fastify';
import type { FuzzRequest } from './fuzz-request.js';
import type { FuzzEnvironment, FuzzRoute } from './fuzz-routes.js';
import type { SeededRandom } from './seeded-random.js';

/** One class of bad input: a fixed seed, and how to break a route's valid request with it. */
export interface InputClass {
  name: string;
  /** The default seed; `FUZZ_SEED` replaces it. */
  seed: number;
  generate(random: SeededRandom, route: FuzzRoute, environment: FuzzEnvironment): FuzzRequest;
  /** What the class demands of an answer beyond the fuzz's own rules: a problem, or undefined. */
  check?(route: FuzzRoute, response: LightMyRequestResponse): string | undefined;
}
