import type { Dialect } from './fuzz-routes.js';

const sameKeys = (value: unknown, keys: string[]) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).sort().join() === [...keys].sort().join();

/** The dialect a JSON error body is written in, or undefined when it is in none of them. */
export function dialectOfErrorBody(body: unknown): Dialect | undefined {
  if (sameKeys(body, ['success', 'message'])) {
    const envelope = body as { success: unknown; message: unknown };
    return envelope.success === false && typeof envelope.message === 'string' && envelope.message !== '' ? 'envelope' : undefined;
  }
  if (sameKeys(body, ['type', 'error'])) {
    const anthropic = body as { type: unknown; error: Record<string, unknown> };
    const fine = anthropic.type === 'error' && sameKeys(anthropic.error, ['type', 'message']) && typeof anthropic.error.type === 'string' && typeof anthropic.error.message === 'string';
    return fine ? 'anthropic' : undefined;
  }
  if (!sameKeys(body, ['error'])) return undefined;
  const error = (body as { error: Record<string, unknown> }).error;
  if (sameKeys(error, ['message', 'type', 'code', 'param'])) {
    const fine = typeof error.message === 'string' && error.message !== '' && typeof error.type === 'string' && typeof error.code === 'string' && (error.param === null || typeof error.param === 'string');
    return fine ? 'openai' : undefined;
  }
  if (sameKeys(error, ['code', 'message', 'status'])) {
    return typeof error.code === 'number' && typeof error.message === 'string' && typeof error.status === 'string' ? 'native' : undefined;
  }
  if (sameKeys(error, ['message', 'type', 'code'])) {
    return typeof error.message === 'string' && typeof error.type === 'string' && typeof error.code === 'string' ? 'images' : undefined;
  }
  return undefined;
}

/** The dialect the gateway answers a path in when no route matched (its not-found answer). */
export function dialectOfPath(url: string): Dialect {
  if (url.startsWith('/api/')) return 'envelope';
  if (url.startsWith('/v1beta/')) return 'native';
  if (url === '/v1/messages' || url.startsWith('/v1/messages/')) return 'anthropic';
  return 'openai';
}
