import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { dialectOfErrorBody, dialectOfPath } from './fuzz/error-shape.js';
import type { FuzzRequest } from './fuzz/fuzz-request.js';
import { fuzzRoutes, type FuzzRoute } from './fuzz/fuzz-routes.js';
import { startFuzzGateway } from './fuzz/fuzz-gateway.js';
import { inputClasses } from './fuzz/input-classes.js';
import { seededRandom } from './fuzz/seeded-random.js';

// Over 10,000 malformed requests across every route, through app.inject: broken JSON, wrong
// types, huge values, odd unicode, hostile URLs, header injection, deep nesting and other spellings of each
// path without credentials (which must be a 401 like the plain path's), each class from its own
// seeded generator. Not one may be a 5xx, every 4xx must be an error body in the route's
// dialect, no injected header may come back, nothing may be logged as an error, and the heap
// must end where it started.
//
// Replay (the cases of a class depend only on its seed, never on the answers):
//   FUZZ_CLASS=huge-values npx tap test/faults/bad-input-fuzz.test.ts           one class, its own seed
//   FUZZ_CLASS=huge-values FUZZ_SEED=0x1234abcd npx tap test/faults/bad-input-fuzz.test.ts   another seed
//   FUZZ_CLASS=huge-values FUZZ_INDEX=137 npx tap test/faults/bad-input-fuzz.test.ts         only case 137, printed
//   FUZZ_COUNT=60000 npx tap test/faults/bad-input-fuzz.test.ts                 more cases in all

const total = Number(process.env.FUZZ_COUNT ?? 10_200);
const onlyClass = process.env.FUZZ_CLASS;
const seedOverride = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const onlyIndex = process.env.FUZZ_INDEX === undefined ? undefined : Number(process.env.FUZZ_INDEX);
const concurrency = 16;
// Known gap: fastify's router answers these itself, before any route or error handler, until
// server/build-app.ts passes plugins/errors/error-handler.ts's answerFrameworkError as `frameworkErrors`.
const routerErrorCodes = new Set(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);
/** Growth of the heap (after a full GC) the run may leave behind: caches fill up, nothing should grow with the number of requests. */
const heapGrowthBound = 24 * 1024 * 1024;

/** A full garbage collection, when this process can be given one. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose_gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return () => {
    gc?.();
    gc?.();
  };
}

/** What is wrong with one answer, or undefined when nothing is. */
function problemWith(route: FuzzRoute, request: FuzzRequest, response: LightMyRequestResponse): string | undefined {
  if (response.statusCode >= 500) return `answered ${response.statusCode}`;
  const headerNames = Object.keys(response.headers).map((name) => name.toLowerCase());
  if (headerNames.includes('x-injected')) return 'an injected header came back';
  const requestId = String(response.headers['x-request-id'] ?? '');
  if (/[\r\n\0]/.test(requestId) || requestId.length > 128) return `x-request-id came back as given: ${JSON.stringify(requestId.slice(0, 60))}`;
  if (response.statusCode < 400 || request.method === 'HEAD') return undefined;
  let body: unknown;
  try {
    body = response.json();
  } catch {
    return `a ${response.statusCode} whose body is not JSON`;
  }
  if (routerErrorCodes.has(String((body as { code?: unknown }).code))) return `router: a ${response.statusCode} ${String((body as { code?: unknown }).code)}`;
  const dialect = dialectOfErrorBody(body);
  const path = request.url.split('?')[0] ?? '';
  if (dialect === undefined) return `a ${response.statusCode} in no error shape`;
  if (dialect !== route.dialect && dialect !== dialectOfPath(path)) return `a ${response.statusCode} in the ${dialect} shape, not ${route.dialect}`;
  return undefined;
}

const describe = (request: FuzzRequest) => {
  const payload = request.payload === undefined ? '' : String(request.payload);
  return `${request.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers).slice(0, 300)} ${payload.slice(0, 300)}${payload.length > 300 ? `… (${payload.length} characters)` : ''}`;
};

// The run is bound by CPU: 30–75 s alone, but 120 s (the `.taprc` timeout of a file) when the
// machine runs three test suites at once. Its own timeout scales with the cases it sends.
t.setTimeout(Math.max(120_000, total * 30));

t.test('malformed requests on every route: no 5xx, errors in the dialect, no crash, a stable heap', async (t) => {
  const gateway = await startFuzzGateway(t);
  const { app, environment } = gateway;
  const collectGarbage = garbageCollector();
  const send = (request: FuzzRequest) =>
    app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload === undefined ? {} : { payload: request.payload }) });

  const classes = inputClasses.filter((inputClass) => onlyClass === undefined || inputClass.name === onlyClass);
  t.ok(classes.length > 0, `FUZZ_CLASS names a class: ${inputClasses.map((inputClass) => inputClass.name).join(', ')}`);
  const perClass = Math.ceil(total / classes.length);

  // A first round of every class fills the caches and compiles the code paths before the heap is measured.
  for (const inputClass of classes) {
    const random = seededRandom(inputClass.seed ^ 0x0badf00d);
    for (const route of fuzzRoutes) await send(inputClass.generate(random, route, environment));
  }
  gateway.forgetUpstreamRequests();
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  let sent = 0;

  for (const inputClass of classes) {
    const seed = seedOverride ?? inputClass.seed;
    t.test(`${inputClass.name} (seed 0x${seed.toString(16)})`, async (t) => {
      const random = seededRandom(seed);
      const findings: string[] = [];
      const routerFindings: string[] = [];
      const statuses = new Map<number, number>();
      let next = 0;
      // Cases are made in index order, one at a time, whatever order their answers come in.
      const take = (): { index: number; route: FuzzRoute; request: FuzzRequest } | undefined => {
        while (next < perClass) {
          const index = next;
          next += 1;
          const route = fuzzRoutes[index % fuzzRoutes.length] as FuzzRoute;
          const request = inputClass.generate(random, route, environment);
          if (onlyIndex === undefined || onlyIndex === index) return { index, route, request };
        }
        return undefined;
      };
      const worker = async () => {
        for (let item = take(); item !== undefined; item = take()) {
          const { index, route, request } = item;
          if (onlyIndex !== undefined) t.comment(`case ${index} on ${route.name}: ${describe(request)}`);
          let problem: string | undefined;
          try {
            const response = await send(request);
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            problem = problemWith(route, request, response) ?? inputClass.check?.(route, response);
            if (problem !== undefined) problem += `: ${response.payload.slice(0, 300)}`;
          } catch (error) {
            problem = `inject failed: ${(error as Error).message}`;
          }
          sent += 1;
          if (problem?.startsWith('router: ') === true) {
            if (routerFindings.length < 3) routerFindings.push(`case ${index} on ${route.name}: ${problem}`);
          } else if (problem !== undefined && findings.length < 8) {
            findings.push(`case ${index} on ${route.name} (replay: FUZZ_CLASS=${inputClass.name} FUZZ_SEED=0x${seed.toString(16)} FUZZ_INDEX=${index}): ${problem}\n    ${describe(request)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
      t.same(findings, [], `no 5xx, every error in its route's dialect, nothing injected (${summary})`);
      t.same(routerFindings, [], "errors of fastify's router in the dialect too");
      t.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'the gateway still serves');
    });
  }

  t.test('afterwards', async (t) => {
    if (onlyClass === undefined && onlyIndex === undefined) t.ok(sent >= 10_000, `${sent} malformed requests were sent`);
    t.same(gateway.errors.lines, [], `nothing was logged as an error (${gateway.errors.count} lines)`);
    t.same(gateway.canaryHits, [], 'no hostile URL reached the server on this machine it pointed at');
    gateway.forgetUpstreamRequests();
    collectGarbage();
    const growth = process.memoryUsage().heapUsed - heapBefore;
    t.ok(growth < heapGrowthBound, `the heap grew by ${(growth / 1048576).toFixed(1)} MiB, under ${heapGrowthBound / 1048576} MiB`);
  });
});
