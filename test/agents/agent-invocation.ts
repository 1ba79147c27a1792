/** Where an agent is pointed and what it is asked. */
export interface AgentTarget {
  /** The gateway's origin, `http://127.0.0.1:<port>`, without a trailing slash. */
  baseUrl: string;
  /** The gateway API key (`sk-...`) the agent presents. */
  apiKey: string;
  /** The model id the agent asks for, as the gateway lists it (`gx-2.5-pro`). */
  model: string;
}

/** The private directories of one run. */
export interface AgentDirectories {
  /** The agent's home: HOME, the XDG folders and the agent's own config folder are under it. */
  home: string;
  /** The folder the agent works in (its current directory). */
  workdir: string;
}

/** How to start one agent headless: its binary's arguments and its own settings. */
export interface AgentInvocation {
  args: string[];
  /** The agent's documented variables (base URL, key, telemetry and update switches). */
  env: Record<string, string>;
}

/** A call of one of the agent's tools, as the model asks for it. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** One coding agent: its package, its binary, and how it is set up for a run. */
export interface CodingAgent {
  /** The name used in test titles, fixture folders and docs (`claude-code`). */
  name: string;
  /** The npm package of test/agents/package.json that holds it. */
  packageName: string;
  /** The binary's name in test/agents/node_modules/.bin. */
  binary: string;
  /**
   * The call of the agent's own shell tool that runs `command`: the tool's name and arguments
   * as its schema declares them (test/fixtures/agents/<agent>/plain.json).
   */
  shellCall(command: string): ToolCall;
  /** Writes the agent's config into `directories.home` and returns how to start it with `prompt`. */
  prepare(target: AgentTarget, directories: AgentDirectories, prompt: string): AgentInvocation;
}
