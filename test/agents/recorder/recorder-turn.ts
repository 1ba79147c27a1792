import type { ToolCall } from '../agent-invocation.js';

/**
 * What the recorder answers to one model request: text, or a call of the agent's shell tool.
 * The agent recorder (`record-agent-requests.ts`) records the requests a coding agent sends;
 * its answers exist only so the agent goes on to its next request, so they are as small as
 * the wire format allows.
 */
export type RecorderTurn = { kind: 'text'; text: string } | ({ kind: 'tool' } & ToolCall);

/** What the recorder is asked to make the agent do. */
export interface RecorderScript {
  /** The text of every text answer. */
  text: string;
  /**
   * A tool call to answer once, on the first request that declares the tool and carries no
   * tool result yet (the agent's shell tool, from `CodingAgent.shellCall`).
   */
  call?: ToolCall;
}

/**
 * The turn for a request that declares `toolNames` and does (or does not) already carry a
 * tool's result: the scripted call while no result came back yet, else text.
 */
export function recorderTurn(script: RecorderScript, toolNames: readonly string[], carriesToolResult: boolean): RecorderTurn {
  if (script.call === undefined || carriesToolResult || !toolNames.includes(script.call.name)) return { kind: 'text', text: script.text };
  return { kind: 'tool', ...script.call };
}

/** About four characters a token, as the fakes count; never zero for a non-empty text. */
export const countTokens = (text: string): number => (text === '' ? 0 : Math.max(1, Math.ceil(text.length / 4)));

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const objects = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter(isObject) : []);
