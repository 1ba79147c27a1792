import t from 'tap';
import type { ResponsesRequest } from '../../../../core/index.js';
import { chatCompletionRequestSchema } from '../../../../core/contracts/chat-completion-request.js';
import { ResponsesConversationStore, type StoredConversation } from '../../../../core/conversations/responses-conversation-store.js';
import { MemoryStoreBackend } from '../../../../core/store/memory-store-backend.js';
import { toGxRequest } from '../../../../providers/gx/chat/to-gx-request.js';
import responsesToChat from '../../../../translators/responses-to-chat/index.js';
import { contextFor, fixtureJson, recordedRequest } from './fixtures/read-fixtures.js';

// The served request must be one a chat family takes: here the gx provider's own translation
// of it (what its `prepare` and handler run), for every request the clients were recorded
// sending, each continuation expanded by the conversation store first, as the pipeline does.

const recordings = ['codex-plain', 'codex-tool', 'openai-sdk-create-text', 'openai-sdk-stream-text', 'openai-sdk-tool-round-trip', 'openai-sdk-image-json-schema', 'ai-sdk-generate-text', 'ai-sdk-stream-text', 'ai-sdk-tool-loop', 'ai-sdk-two-turns'];
const usage = { inputTokens: 12, cachedInputTokens: 0, outputTokens: 5, reasoningTokens: 0, source: 'upstream' as const };

/** The request id the recorder answered request `index` of a recording with: the one a later request names (`resp_rec3`, `msg_rec10_0`). */
function recorderRequestId(name: string, index: number): string | undefined {
  const next = JSON.stringify(fixtureJson<{ requests: { body: unknown }[] }>(`responses-to-chat/${name}.json`).requests[index + 1]?.body ?? {});
  return /"(?:resp|msg|fc)_(rec\d+)/.exec(next)?.[1];
}

t.test('every recorded client request, expanded where it continues a conversation, is one the gx provider translates', async (t) => {
  for (const name of recordings) {
    const conversations = new ResponsesConversationStore(new MemoryStoreBackend().keyv<StoredConversation>('responses-conversations'), 3_600_000);
    const count = fixtureJson<{ requests: unknown[] }>(`responses-to-chat/${name}.json`).requests.length;
    for (let index = 0; index < count; index += 1) {
      const expanded: ResponsesRequest = await conversations.expand(recordedRequest(name, index), 'user-1');
      const context = contextFor(expanded.stream === true);
      const chat = chatCompletionRequestSchema.parse(responsesToChat.request(expanded, context).request);
      const gx = toGxRequest(chat, { upstreamModel: 'gx-2.5-pro', media: new Map() });
      t.ok(Array.isArray(gx.body.contents) && gx.body.contents.length > 0, `${name} request ${index}: gx contents`);
      const requestId = recorderRequestId(name, index);
      if (requestId === undefined) continue;
      // The recorder's answer to this request, as the gateway would have kept it: a call where the next request answers one, else text.
      const calledTool = /"call_id":"call_(rec\d+)"/.exec(JSON.stringify(fixtureJson<{ requests: { body: unknown }[] }>(`responses-to-chat/${name}.json`).requests[index + 1]?.body));
      const toolName = String((expanded.tools?.[0] as { name?: unknown } | undefined)?.name);
      const message = calledTool === null ? { content: 'Hello.' } : { content: null, tool_calls: [{ id: `call_${calledTool[1]}`, type: 'function', function: { name: toolName, arguments: '{"city":"Paris"}' } }] };
      const answer = responsesToChat.answer({ choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: calledTool === null ? 'stop' : 'tool_calls' }] }, usage, 'chat', { ...context, requestId }, expanded);
      await conversations.remember(expanded, answer, 'user-1');
    }
  }
});
