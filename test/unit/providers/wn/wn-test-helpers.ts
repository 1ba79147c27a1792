import { readFileSync } from 'node:fs';
import { GatewayError, type VideoSubmitRequest } from '../../../../core/index.js';

/** A fresh copy of a recorded DashScope task body from test/fixtures/wn/dashscope-video-task-lifecycle.json. */
export function wnLifecycleFixture(name: 'create_response' | 'create_error' | 'succeeded' | 'failed' | 'unknown_expired' | 'real_wan_succeeded'): Record<string, any> {
  const all = JSON.parse(readFileSync(new URL('../../../fixtures/wn/dashscope-video-task-lifecycle.json', import.meta.url), 'utf8'));
  return all[name];
}

/** The gateway error `action` throws; fails the test when it throws nothing or something else. */
export function refusalOf(action: () => unknown): GatewayError {
  try {
    action();
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal, but the request was accepted');
}

/** A client body as core hands it to the provider. */
export const videoRequest = (body: Record<string, unknown>): VideoSubmitRequest => body as VideoSubmitRequest;
