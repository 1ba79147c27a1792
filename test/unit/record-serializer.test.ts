import t from 'tap';
import Keyv from 'keyv';
import { deserializeRecord, serializeRecord } from '../../core/store/record-serializer.js';

// keyv's own serializer and deserializer: what every record in a store was written with.
const keyv = new Keyv();
const keyvSerialize = (value: unknown) => keyv.serialize?.(value as never) as string;
const keyvDeserialize = (text: string) => keyv.deserialize?.(text) as unknown;

const samples: Record<string, unknown> = {
  'a conversation record': {
    value: {
      input: [{ type: 'message', role: 'user', content: 'Explain what a gateway does: briefly, "quoted", with a \\ and a \u00e9.' }],
      output: [{ id: 'msg_1_0', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It routes, {"type":"Buffer"} and [":x"].', annotations: [] }] }],
    },
    expires: 1_800_000_000_000,
  },
  'a string that starts with a colon': { value: { name: ':admin', list: [':a', 'b', ':c'], nested: { deep: '::two' } }, expires: undefined },
  'a key that starts with a colon': { value: { ':key': 'plain', other: ':value' } },
  'a Buffer, alone and nested': { value: { bytes: Buffer.from('hello'), inside: [Buffer.from([0, 1, 2])] } },
  'a date, numbers, null and missing fields': { value: { at: new Date(0), n: 1.5, none: null, gone: undefined, flags: [true, false] } },
  'a top-level string with a colon': ':top',
  'null': null,
  'an empty object': {},
};

for (const [name, sample] of Object.entries(samples)) {
  t.test(`${name} is written exactly as keyv writes it, and read back as keyv reads it`, async (t) => {
    const text = serializeRecord(sample);
    t.equal(text, keyvSerialize(sample));
    t.same(deserializeRecord(text), keyvDeserialize(text));
  });
}

t.test('a Buffer comes back as a Buffer and an escaped string as the string it was', async (t) => {
  const read = deserializeRecord<{ value: { bytes: Buffer; name: string } }>(serializeRecord({ value: { bytes: Buffer.from('hi'), name: ':admin' } }));
  t.ok(Buffer.isBuffer(read.value.bytes));
  t.equal(read.value.bytes.toString(), 'hi');
  t.equal(read.value.name, ':admin');
});
