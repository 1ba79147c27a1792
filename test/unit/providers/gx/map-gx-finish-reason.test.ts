import t from 'tap';
import { mapGxFinishReason } from '../../../../providers/gx/chat/from-gx-response.js';

t.test('STOP is stop, MAX_TOKENS is length, every other reason is content_filter', async (t) => {
  t.equal(mapGxFinishReason('STOP', false), 'stop');
  t.equal(mapGxFinishReason('MAX_TOKENS', false), 'length');
  for (const reason of ['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'OTHER', 'IMAGE_SAFETY', 'SOMETHING_NEW']) {
    t.equal(mapGxFinishReason(reason, false), 'content_filter', reason);
  }
});

t.test('a choice that called a function finishes with tool_calls whatever the upstream said', async (t) => {
  t.equal(mapGxFinishReason('STOP', true), 'tool_calls');
  t.equal(mapGxFinishReason(undefined, true), 'tool_calls');
});

t.test('no reason and no call means the choice has not finished', async (t) => {
  t.equal(mapGxFinishReason(undefined, false), undefined);
  t.equal(mapGxFinishReason(null, false), undefined);
  t.equal(mapGxFinishReason('', false), undefined);
});
