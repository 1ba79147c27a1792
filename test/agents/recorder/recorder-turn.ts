/**
 * What the recorder answers to one model request: text, or a call of the agent's shell tool.
 * The agent recorder (`record-agent-requests.ts`) records the requests a coding agent sends;
 * its answers exist only so the agent goes on to its next request, so they are as small as
 * the wire format allows.
 */
export type RecorderTurn = { kind: 'text'; text: string } | { kind: 'tool'; name: string; arguments: Record<string, unknown> };

/**
 * The shell tools of the four agents, by the name each declares, and the arguments that run
 * `command` in them (read from the tool schemas of the recorded requests in
 * test/fixtures/agents/).
 */
const shellTools: Record<string, (command: string) => Record<string, unknown>> = {
  Bash: (command) => ({ command, description: 'Write the marker file' }),
  bash: (command) => ({ command, description: 'Write the marker file' }),
  shell_command: (command) => ({ command }),
  exec_command: (command) => ({ cmd: command }),
  shell: (command) => ({ command: ['bash', '-lc', command] }),
  run_shell_command: (command) => ({ command, description: 'Write the marker file' }),
};

/** What the recorder is asked to make the agent do. */
export interface RecorderScript {
  /** The text of every text answer. */
  text: string;
  /** A shell command to request once, on the first request that declares a shell tool and carries no tool result yet. */
  command?: string;
}

/**
 * The turn for a request that declares `toolNames` and does (or does not) already carry a
 * tool's result: the shell call while the script has one and no result came back yet, else text.
 */
export function recorderTurn(script: RecorderScript, toolNames: readonly string[], carriesToolResult: boolean): RecorderTurn {
  if (script.command === undefined || carriesToolResult) return { kind: 'text', text: script.text };
  const name = Object.keys(shellTools).find((candidate) => toolNames.includes(candidate));
  if (name === undefined) return { kind: 'text', text: script.text };
  return { kind: 'tool', name, arguments: shellTools[name]!(script.command) };
}

/** About four characters a token, as the fakes count; never zero for a non-empty text. */
export const countTokens = (text: string): number => (text === '' ? 0 : Math.max(1, Math.ceil(text.length / 4)));

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
export const objects = (value: unknown): Array<Record<string, unknown>> => (Array.isArray(value) ? value.filter(isObject) : []);
