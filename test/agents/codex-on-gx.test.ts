// Codex CLI against a gx model: Codex speaks only Responses, which gx serves through the
// Responses translator (Responses to chat completions, then chat to gx's native API).
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { codexAgent } from './coding-agents.js';
import { gxNative } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

t.test('Codex CLI prints the answer of a gx model, streamed word by word, and the token is billed exactly', (t) => plainPromptAnswered(t, gateway, codexAgent, gxNative));
t.test('Codex CLI runs the shell command a gx model asks for and sends its output back', (t) => toolRoundTrip(t, gateway, codexAgent, gxNative));
