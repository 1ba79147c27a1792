import type { LightMyRequestResponse } from 'fastify';
import type { Test } from 'tap';
import type { TestApp } from '../helpers/build-test-app.js';
import { storedToken, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { Dialect, FaultScene } from './fault-scene.js';

/** What a refusal looks like to the client: its HTTP status and the gateway's code for it. */
export interface Refusal {
  status: number;
  code: string;
}

const openAiTypes: Record<number, string> = { 403: 'permission_error' };
const nativeStatuses: Record<number, string> = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND' };

/** Asserts an error answer with exactly the fields of the route's dialect; the native shape carries the status, not the gateway's code. */
export function assertRefusedInDialect(t: Test, response: LightMyRequestResponse, dialect: Dialect, refusal: Refusal): void {
  t.equal(response.statusCode, refusal.status, `answers ${refusal.status}`);
  t.match(response.headers['content-type'], /^application\/json/, 'as JSON, not as a stream');
  const body = response.json();
  t.same(Object.keys(body), ['error'], 'the body is one error object');
  if (dialect === 'native') {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'status'], 'in the native shape');
    t.match(body.error, { code: refusal.status, status: nativeStatuses[refusal.status] });
  } else if (dialect === 'openai') {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type'], 'in the OpenAI shape');
    t.match(body.error, { code: refusal.code, type: openAiTypes[refusal.status] ?? 'invalid_request_error' });
  } else {
    t.same(Object.keys(body.error).sort(), ['code', 'message', 'type'], "in the images table's shape");
    t.match(body.error, { code: refusal.code, type: 'invalid_request_error' });
  }
  t.match(body.error.message, /\S/, 'with a message');
}

/** Requests every fake of the scene has received so far. */
export function upstreamRequestCount(scene: FaultScene): number {
  return [scene.gx.first, scene.gx.second, scene.openAi.first, scene.openAi.second].reduce((sum, fake) => sum + fake.requests.length, 0);
}

/** The token still has all of `startingQuota`: nothing charged, nothing held. */
export async function assertNothingCharged(t: Test, gateway: TestApp, token: IssuedToken, startingQuota: number): Promise<void> {
  t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: startingQuota }, 'nothing is charged or held');
}
