// Codex CLI, headless (`codex exec`), against the gateway with only its documented provider
// settings (docs/coding-agents.md). Codex speaks only Responses, native on gp.
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { codexAgent } from './coding-agents.js';
import { gpResponses } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

t.test('Codex CLI prints the answer of a gp model, streamed word by word, and the token is billed exactly', (t) => plainPromptAnswered(t, gateway, codexAgent, gpResponses));
t.test('Codex CLI runs the shell command a gp model asks for and sends its output back under the call id', (t) => toolRoundTrip(t, gateway, codexAgent, gpResponses));
