import { readFileSync } from 'node:fs';
import { GatewayError, type VideoSubmitRequest } from '../../../../core/index.js';

const readFixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../fixtures/hx/${name}`, import.meta.url), 'utf8'));

/** A fresh copy of a recorded HappyHorse request from test/fixtures/hx/dashscope-happyhorse-requests.json. */
export function hxRequestFixture(name: 't2v' | 'i2v' | 'r2v' | 'video_edit'): Record<string, any> {
  return readFixture('dashscope-happyhorse-requests.json')[name];
}

/** A fresh copy of a recorded DashScope task body from test/fixtures/hx/dashscope-video-task-lifecycle.json. */
export function hxLifecycleFixture(name: 'create_response' | 'create_error' | 'succeeded' | 'failed' | 'unknown_expired' | 'real_wan_succeeded'): Record<string, any> {
  return readFixture('dashscope-video-task-lifecycle.json')[name];
}

/** The client body that carries a recorded upstream request: its input and parameters as metadata, under the hx model id. */
export function clientBodyOf(recorded: Record<string, any>): Record<string, unknown> {
  return { model: String(recorded.model).replace('happyhorse-', 'hx-'), metadata: { input: recorded.input, parameters: recorded.parameters } };
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
