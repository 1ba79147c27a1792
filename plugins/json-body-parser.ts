import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

/**
 * fastify's JSON parser, except that an empty body reads as no body. Many HTTP clients send
 * `content-type: application/json` on bodyless POST and DELETE requests (key reveal, delete);
 * refusing those would be a 400 for nothing. Routes that need a body still say so.
 */
export const jsonBodyParserPlugin = fastifyPlugin(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      parseJson(request, body as string, done);
    });
  },
  { name: 'json-body-parser' },
);
