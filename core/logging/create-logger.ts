import type { DestinationStream, Logger } from 'pino';
import { pino } from 'pino';

// The gateway's own API keys (sk-) and login tokens (mgu_), OpenAI-style vendor keys
// (sk-proj-…, sk-ant-…) and Google-style ones (AIza…), as channel keys look.
const keyShapes = /\bsk-[0-9A-Za-z_-]{8,}|\bmgu_[0-9A-Za-z]{8,}|\bAIza[0-9A-Za-z_-]{20,}/g;
const queryKey = /([?&](?:key|api_key)=)[^&#]*/gi;

/** Hides anything shaped like an API key or login token, and `key=` query values, in free text. */
export function redactSecrets(text: string): string {
  return text.replace(queryKey, '$1[redacted]').replace(keyShapes, '[redacted]');
}

/** Whether `text` holds something shaped like an API key or login token. */
export function containsSecret(text: string): boolean {
  keyShapes.lastIndex = 0;
  return keyShapes.test(text);
}

/**
 * The gateway's pino logger. Credentials never reach a log line: credential headers are
 * censored by path, URLs lose `key=` values, and key-shaped strings in messages are masked.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-gx-api-key"]',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'headers.authorization',
          'headers["x-gx-api-key"]',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: { method: string; url: string; ip?: string; id?: string }) => ({
          id: request.id,
          method: request.method,
          url: redactSecrets(request.url),
          ip: request.ip,
        }),
      },
      hooks: {
        logMethod(inputArguments, method) {
          const redacted = inputArguments.map((argument) => (typeof argument === 'string' ? redactSecrets(argument) : argument));
          return method.apply(this, redacted as Parameters<typeof method>);
        },
      },
    },
    options.destination,
  );
}
