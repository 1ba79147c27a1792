// Claude Code, in print mode (`claude -p`), against the gateway with only its documented base
// URL and key (docs/coding-agents.md). It speaks only the Messages format (`POST /v1/messages`),
// which the gateway serves on every chat family through the Messages translator: a gx model
// (native upstream) and a gp model (chat upstream).
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { claudeCodeAgent } from './coding-agents.js';
import { gpChat, gxNative } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

for (const upstream of [gxNative, gpChat]) {
  t.test(`Claude Code prints the answer of ${upstream.label}, streamed word by word, and the token is billed exactly`, (t) => plainPromptAnswered(t, gateway, claudeCodeAgent, upstream));
  t.test(`Claude Code runs the shell command ${upstream.label} asks for and sends its output back under the call id`, (t) => toolRoundTrip(t, gateway, claudeCodeAgent, upstream));
}
