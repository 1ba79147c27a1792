// Gemini CLI against a gp model: Gemini CLI speaks only the native streamGenerateContent,
// which gp serves through the native-to-chat translator (native to chat completions).
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { geminiCliAgent } from './coding-agents.js';
import { gpChat } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

t.test('Gemini CLI prints the answer of a gp model, streamed word by word, and the token is billed exactly', (t) => plainPromptAnswered(t, gateway, geminiCliAgent, gpChat));
t.test('Gemini CLI runs the shell command a gp model asks for and sends its output back under the call id', (t) => toolRoundTrip(t, gateway, geminiCliAgent, gpChat));
