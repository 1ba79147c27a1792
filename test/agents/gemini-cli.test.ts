// Gemini CLI, headless (`gemini -p`), against the gateway with only its documented base URL
// and key (docs/coding-agents.md). It speaks only the native streamGenerateContent, served
// natively on gx, and sends its key as x-goog-api-key.
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { geminiCliAgent } from './coding-agents.js';
import { gxNative } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

t.test('Gemini CLI prints the answer of a gx model, streamed word by word, and the token is billed exactly', (t) => plainPromptAnswered(t, gateway, geminiCliAgent, gxNative));
t.test('Gemini CLI runs the shell command a gx model asks for and sends its output back', (t) => toolRoundTrip(t, gateway, geminiCliAgent, gxNative));
