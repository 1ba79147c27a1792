import t from 'tap';
import { ResponsesConversationStore, type StoredConversation } from '../../core/conversations/responses-conversation-store.js';
import { responsesRequestSchema } from '../../core/contracts/responses-request.js';
import { createStoreBackend } from '../../core/store/create-store-backend.js';
import { parseClientInput } from '../../core/validation/parse-client-input.js';
import { storageDrivers, storageFor } from '../helpers/test-config.js';

// The conversations of translated Responses answers (`previous_response_id`) on every store
// driver: what one gateway process keeps, any other sharing the store must find, for exactly
// the affinity TTL, and only for the user who made it.

const day = 24 * 3_600_000;
const request = (body: Record<string, unknown>) => parseClientInput(responsesRequestSchema, { model: 'gx-2.5-pro', ...body });

/** A translated answer to keep: one assistant message, under `id`. */
const answer = (id: string, text: string) => ({
  id,
  status: 'completed',
  output: [{ id: `msg_${id.slice('resp_'.length)}_0`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text }] }],
});

for (const driver of storageDrivers) {
  t.test(`conversations on the ${driver} driver`, async (t) => {
    const backend = await createStoreBackend(storageFor(t, driver));
    t.teardown(() => backend.close());
    const records = backend.keyv<StoredConversation>('responses-conversations');
    const conversations = new ResponsesConversationStore(records, 30 * day);

    t.test("a kept answer expands its follow-up with the stored input and output, read through another store instance", async (t) => {
      const first = await conversations.expand(request({ input: 'my name is Ada' }), '7');
      await conversations.remember(first, answer('resp_a1', 'Hello, Ada.'), '7');
      // Another process on the same store has its own store object over the same records.
      const elsewhere = new ResponsesConversationStore(backend.keyv<StoredConversation>('responses-conversations'), 30 * day);
      const followUp = await elsewhere.expand(request({ input: 'what is my name?', previous_response_id: 'resp_a1' }), '7');
      t.strictSame(followUp.input, [
        { type: 'message', role: 'user', content: 'my name is Ada' },
        answer('resp_a1', 'Hello, Ada.').output[0],
        { type: 'message', role: 'user', content: 'what is my name?' },
      ]);
    });

    t.test("another user's id, an unknown id and a store: false answer are each a 404 that says so", async (t) => {
      await conversations.remember(request({ input: 'one' }), answer('resp_b1', 'First.'), '7');
      await conversations.remember(request({ input: 'two', store: false }), answer('resp_b2', 'Second.'), '7');
      for (const [id, owner] of [['resp_b1', '8'], ['resp_unknown', '7'], ['resp_b2', '7']] as const) {
        await t.rejects(conversations.expand(request({ input: 'next', previous_response_id: id }), owner), { statusCode: 404, code: 'previous_response_not_found', param: 'previous_response_id' }, `${id} for user ${owner}`);
      }
      t.equal(await records.get('7:resp_b2'), undefined, 'nothing was stored for store: false');
    });

    t.test('a conversation is kept for the TTL it was written with, then no longer found', async (t) => {
      const shortLived = new ResponsesConversationStore(records, 100);
      await shortLived.remember(request({ input: 'brief' }), answer('resp_c1', 'Soon gone.'), '7');
      await t.resolves(shortLived.expand(request({ input: 'next', previous_response_id: 'resp_c1' }), '7'), 'found within the TTL');
      await new Promise((resolve) => setTimeout(resolve, 400));
      await t.rejects(shortLived.expand(request({ input: 'next', previous_response_id: 'resp_c1' }), '7'), { code: 'previous_response_not_found' }, 'expired');
    });
  });
}
