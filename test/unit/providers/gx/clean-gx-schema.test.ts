import t from 'tap';
import { cleanGxSchema, isEmptyObjectSchema } from '../../../../providers/gx/chat/clean-gx-schema.js';

t.test('local $refs are inlined, with siblings of the $ref refining the definition', async (t) => {
  const schema = {
    type: 'object',
    properties: { home: { $ref: '#/$defs/Address', description: 'where they live' }, work: { $ref: '#/definitions/Address' } },
    $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } },
    definitions: { Address: { type: 'object', properties: { city: { type: 'string' } } } },
  };
  t.strictSame(cleanGxSchema(schema), {
    type: 'object',
    properties: {
      home: { type: 'object', properties: { city: { type: 'string' } }, description: 'where they live' },
      work: { type: 'object', properties: { city: { type: 'string' } } },
    },
  });
});

t.test('a recursive $ref stops at the definition’s type', async (t) => {
  const schema = {
    $ref: '#/$defs/Node',
    $defs: { Node: { type: 'object', properties: { value: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
  };
  t.strictSame(cleanGxSchema(schema), {
    type: 'object',
    properties: { value: { type: 'string' }, children: { type: 'array', items: { type: 'object' } } },
  });
});

t.test('a null alternative becomes nullable, in type arrays and in anyOf or oneOf', async (t) => {
  t.strictSame(cleanGxSchema({ type: ['string', 'null'] }), { type: 'string', nullable: true });
  t.strictSame(cleanGxSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'age' }), { description: 'age', nullable: true, type: 'integer' });
  t.strictSame(cleanGxSchema({ oneOf: [{ type: 'string' }, { type: 'number' }] }), { anyOf: [{ type: 'string' }, { type: 'number' }] });
  t.strictSame(cleanGxSchema({ type: ['string', 'number'] }), { anyOf: [{ type: 'string' }, { type: 'number' }] });
});

t.test('allOf members merge, const becomes a one-value enum, unsupported formats are dropped', async (t) => {
  t.strictSame(
    cleanGxSchema({
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { const: 'fixed', type: 'string' } }, required: ['b'] },
      ],
    }),
    { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string', enum: ['fixed'] } }, required: ['a', 'b'] },
  );
  t.strictSame(cleanGxSchema({ type: 'string', format: 'date-time' }), { type: 'string', format: 'date-time' });
  t.strictSame(cleanGxSchema({ type: 'string', format: 'uri' }), { type: 'string' });
});

t.test('an empty properties map is left out, and such an object counts as empty', async (t) => {
  const cleaned = cleanGxSchema({ type: 'object', properties: {}, additionalProperties: false });
  t.strictSame(cleaned, { type: 'object' });
  t.ok(isEmptyObjectSchema(cleaned));
  t.notOk(isEmptyObjectSchema(cleanGxSchema({ type: 'object', properties: { a: { type: 'string' } } })));
});

t.test('the input schema is not changed', async (t) => {
  const schema = { type: 'object', additionalProperties: false, properties: { a: { type: 'string', $comment: 'x' } } };
  const copy = structuredClone(schema);
  cleanGxSchema(schema);
  t.strictSame(schema, copy);
});
