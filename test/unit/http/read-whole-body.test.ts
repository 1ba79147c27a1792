import t from 'tap';
import { readWholeBody } from '../../../core/http/read-whole-body.js';
import { maxResponseBytesOf } from '../../../core/loader/create-provider-host.js';

/** An endless body of 64 KiB chunks that counts how many were taken from it and whether it was abandoned. */
function endlessBody() {
  const chunk = new Uint8Array(64 * 1024);
  const state = { pulled: 0, abandoned: false };
  const chunks: AsyncIterator<Uint8Array> = {
    next: async () => {
      state.pulled += 1;
      return { done: false, value: chunk };
    },
  };
  return { state, chunks, abandon: async () => void (state.abandoned = true) };
}

t.test('a body read whole is given up as soon as it outgrows the limit, so no more than the limit is ever held', async (t) => {
  const body = endlessBody();
  await t.rejects(readWholeBody(body.chunks, 1024 * 1024, body.abandon), { statusCode: 502, code: 'upstream_response_too_large', retryable: true });
  t.equal(body.state.pulled, 17, 'sixteen chunks fill the 1 MiB, the seventeenth goes past it and is the last read');
  t.ok(body.state.abandoned, 'the body is abandoned (its connection dropped)');
});

t.test('a body within the limit is read whole as UTF-8, a byte order mark dropped', async (t) => {
  const pieces = [Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"h\u00e9'), Buffer.from('llo"}')];
  const chunks = pieces[Symbol.iterator]();
  const text = await readWholeBody({ next: async () => chunks.next() }, 64, async () => t.fail('not abandoned'));
  t.equal(text, '{"text":"h\u00e9llo"}');
});

t.test("a channel's limit is its own max_response_mb, else its plugin's default, else 64 MiB", async (t) => {
  t.equal(maxResponseBytesOf({ max_response_mb: 2 }, { maxResponseMb: 256 }), 2 * 1024 * 1024);
  t.equal(maxResponseBytesOf({}, { maxResponseMb: 256 }), 256 * 1024 * 1024);
  t.equal(maxResponseBytesOf({}, {}), 64 * 1024 * 1024);
});
