import type { CodingAgent } from './agent-invocation.js';
import { claudeCodeAgent } from './claude-code-agent.js';
import { codexAgent } from './codex-agent.js';
import { geminiCliAgent } from './gemini-cli-agent.js';
import { opencodeAgent } from './opencode-agent.js';

export type { AgentDirectories, AgentInvocation, AgentTarget, CodingAgent } from './agent-invocation.js';
export { claudeCodeAgent, codexAgent, geminiCliAgent, opencodeAgent };

/** The four coding agents, in the order the docs list them. */
export const codingAgents: readonly CodingAgent[] = [claudeCodeAgent, codexAgent, geminiCliAgent, opencodeAgent];
