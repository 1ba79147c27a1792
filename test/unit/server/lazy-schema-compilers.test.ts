import Fastify from 'fastify';
import t from 'tap';
import { lazySchemaCompilers } from '../../../server/lazy-schema-compilers.js';

t.test('a route that does declare a JSON schema is still validated and serialized by fastify', async (t) => {
  const app = Fastify({ schemaController: lazySchemaCompilers() });
  t.teardown(() => app.close());
  app.post(
    '/echo',
    {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    },
    async (request) => ({ name: (request.body as { name: string }).name, dropped: 'not in the response schema' }),
  );
  const refused = await app.inject({ method: 'POST', url: '/echo', payload: {} });
  t.equal(refused.statusCode, 400);
  t.match(refused.json(), { message: /must have required property 'name'/ });
  const answered = await app.inject({ method: 'POST', url: '/echo', payload: { name: 'ada' } });
  t.same(answered.json(), { name: 'ada' }, 'the response schema serialized it');
});
