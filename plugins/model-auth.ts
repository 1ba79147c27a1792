import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import type { DependencyContainer } from '../core/di/dependency-injection.js';
import { unauthorized } from '../core/errors/error-codes.js';
import { readApiKey } from '../core/pipeline/steps/read-api-key.js';
import { TokenAuthenticator, type AuthenticatedToken } from '../core/tokens/token-authenticator.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The API token of a model route, set before the body is read. */
    apiToken: AuthenticatedToken | null;
  }
  interface FastifyContextConfig {
    /** `none` for a `/v1` route a third party calls without an API key (a validation page's callback); the route checks what it can itself. */
    apiKey?: 'none';
  }
}

/**
 * The pipeline's auth step at the edge: on `/v1/*` and `/v1beta/*` the API key is checked in
 * `onRequest`, before any body is read, so a bad key costs no parsing.
 */
export const modelAuthPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { container: DependencyContainer }) => {
    const authenticator = options.container.resolve(TokenAuthenticator);
    await authenticator.start();
    app.decorateRequest('apiToken', null);
    app.addHook('onRequest', async (request) => {
      const native = request.url.startsWith('/v1beta/');
      if (!native && !request.url.startsWith('/v1/')) return;
      if (request.routeOptions.config?.apiKey === 'none') return;
      const key = readApiKey(request, native);
      if (key === undefined) {
        throw unauthorized(
          native
            ? 'missing API key: send Authorization: Bearer sk-..., x-gx-api-key or ?key='
            : 'missing API key: send Authorization: Bearer sk-...',
        );
      }
      request.apiToken = await authenticator.authenticate(key, request.ip);
    });
  },
  { name: 'model-auth' },
);
