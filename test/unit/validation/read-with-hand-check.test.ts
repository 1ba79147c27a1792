import t from 'tap';
import { z } from 'zod';
import { readWithHandCheck } from '../../../core/validation/read-with-hand-check.js';

const schema = z.object({ text: z.string().nullish() });
const isPlain = (json: unknown): json is z.output<typeof schema> => typeof json === 'object' && json !== null && Object.keys(json).length === 0;

t.test('a value the hand check accepts is taken as it is, without the schema', async (t) => {
  const plain = {};
  const read = readWithHandCheck(plain, isPlain, schema);
  t.ok(read.success);
  t.equal(read.success ? read.data : undefined, plain, 'the very same object');
});

t.test('anything else is judged and read by the schema', async (t) => {
  t.strictSame(readWithHandCheck({ text: 'hi', extra: 1 }, isPlain, schema), { success: true, data: { text: 'hi' } });
  const refused = readWithHandCheck({ text: 3 }, isPlain, schema);
  t.notOk(refused.success);
  t.ok(!refused.success && refused.error instanceof z.ZodError, 'the schema’s error, for the log');
});
