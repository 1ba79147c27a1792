import type { DestinationStream, Logger } from 'pino';
import { pino } from 'pino';
import { containsSecret, redactSecrets, redactSecretsInJson } from '../security/key-shapes.js';
import { operatorSecrets } from '../security/secret-values.js';
import { processLogDestination } from './log-destination.js';

export { containsSecret, redactSecrets };

/**
 * The gateway's pino logger. Credentials never reach a log line: credential headers are
 * censored by path, URLs lose `key=` values, key-shaped strings in messages are masked, and
 * the finished line, whatever object it serialized (an error's message and stack included),
 * is scrubbed of every operator secret by value and of key-shaped strings. Without a
 * `destination`, lines go to stdout through the process's buffered, asynchronous
 * destination ({@link processLogDestination}), flushed at exit.
 */
export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-gx-api-key"]',
          'req.headers["x-goog-api-key"]',
          'req.headers["x-api-key"]',
          'req.headers.cookie',
          'headers.authorization',
          'headers["x-gx-api-key"]',
          'headers["x-goog-api-key"]',
          'headers["x-api-key"]',
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
        // The serialized line: nothing a serializer or a nested object holds escapes this.
        streamWrite: (line) => redactSecretsInJson(operatorSecrets.scrub(line)),
      },
    },
    options.destination ?? processLogDestination(),
  );
}
