// opencode, headless (`opencode run`), against the gateway with only its documented provider
// settings (docs/coding-agents.md). It speaks chat completions, which the gateway serves on gx
// by translating to gx's native API.
import t from 'tap';
import { startAgentGateway } from './agent-gateway.js';
import { plainPromptAnswered, toolRoundTrip } from './agent-scenarios.js';
import { opencodeAgent } from './coding-agents.js';
import { gxNative } from './scripted-upstreams.js';

t.setTimeout(600_000);
const gateway = await startAgentGateway(t);

t.test('opencode prints the answer of a gx model, streamed word by word, and the token is billed exactly', (t) => plainPromptAnswered(t, gateway, opencodeAgent, gxNative));
t.test('opencode runs the shell command a gx model asks for and sends its output back', (t) => toolRoundTrip(t, gateway, opencodeAgent, gxNative));
