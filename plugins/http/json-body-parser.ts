import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { jsonTooDeep } from '../../core/errors/error-codes.js';
import { exceedsJsonDepth } from '../../core/validation/json-depth.js';

/**
 * fastify's JSON parser, except that an empty body reads as no body, and a body nested
 * deeper than `maxDepth` is refused (400 `json_too_deep`) before any route sees it: the
 * steps after parsing (schemas, translations, estimators, `JSON.stringify`) recurse, and a
 * deep body would exhaust their stack. Many HTTP clients send `content-type:
 * application/json` on bodyless POST and DELETE requests (key reveal, delete); refusing
 * those would be a 400 for nothing. Routes that need a body still say so.
 */
export const jsonBodyParserPlugin = fastifyPlugin(
  async (app: FastifyInstance, options: { maxDepth: number }) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      parseJson(request, body as string, (error, value) => {
        if (error !== null) done(error);
        else if (exceedsJsonDepth(value, options.maxDepth)) done(jsonTooDeep(options.maxDepth));
        else done(null, value);
      });
    });
  },
  { name: 'json-body-parser' },
);
