import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDirectories, AgentTarget, CodingAgent } from './agent-invocation.js';

/** The folder of the agents' own package (test/agents), whose node_modules holds them. */
export const agentsPackageFolder = fileURLToPath(new URL('.', import.meta.url));

/**
 * A closed port on loopback: every proxy variable points here, so an attempt to reach any
 * host but 127.0.0.1 (which `NO_PROXY` exempts) is refused at once instead of leaving the
 * machine. Port 9 is the discard service, which nothing on a test machine serves.
 */
const refusingProxy = 'http://127.0.0.1:9';

/** What one headless run of an agent left behind. */
export interface AgentRun extends AgentDirectories {
  agent: string;
  /** The exit code, or null when the process was killed. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when the run outlived its time limit and was killed. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** Options of {@link runAgent}. */
export interface RunAgentOptions extends AgentTarget {
  prompt: string;
  /** The run is killed (its whole process group) after this long. Default 90 s. */
  timeoutMs?: number;
}

/** The path of an installed agent binary; throws, saying how to install, when it is missing. */
export function agentBinary(agent: CodingAgent): string {
  const binary = join(agentsPackageFolder, 'node_modules', '.bin', agent.binary);
  if (!existsSync(binary)) {
    throw new Error(`${agent.packageName} is not installed in test/agents: run \`npm install --prefix test/agents --no-save\` (npm test does it before tap)`);
  }
  return binary;
}

/**
 * Runs `agent` headless against `options.baseUrl` in private temporary folders: a home of its
 * own (HOME, the XDG folders, and each agent's config folder under it, so nothing of the
 * machine's user is read or written), a work folder as its current directory, an environment
 * with nothing inherited but PATH (no key of the machine reaches it), its documented telemetry
 * and update switches off, and every proxy variable on a refusing port with only loopback
 * exempt. Resolves when the process exits or is killed at the time limit; never rejects on
 * the agent's own failure, so the caller can print {@link describeRun}.
 */
export async function runAgent(agent: CodingAgent, options: RunAgentOptions): Promise<AgentRun> {
  const binary = agentBinary(agent);
  const root = mkdtempSync(join(tmpdir(), `mg-agent-${agent.name}-`));
  const directories: AgentDirectories = { home: join(root, 'home'), workdir: join(root, 'work') };
  for (const folder of [directories.home, directories.workdir]) mkdirSync(folder, { recursive: true });
  const invocation = agent.prepare(options, directories, options.prompt);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    HOME: directories.home,
    USERPROFILE: directories.home,
    XDG_CONFIG_HOME: join(directories.home, '.config'),
    XDG_DATA_HOME: join(directories.home, '.local', 'share'),
    XDG_CACHE_HOME: join(directories.home, '.cache'),
    XDG_STATE_HOME: join(directories.home, '.local', 'state'),
    TMPDIR: join(root, 'tmp'),
    ...Object.fromEntries(['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'http_proxy', 'https_proxy', 'all_proxy'].map((name) => [name, refusingProxy])),
    NO_PROXY: '127.0.0.1,localhost,::1',
    no_proxy: '127.0.0.1,localhost,::1',
    ...invocation.env,
  };
  mkdirSync(env.TMPDIR!, { recursive: true });

  const child = spawn(binary, invocation.args, { cwd: directories.workdir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timedOut = false;
  const killGroup = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, options.timeoutMs ?? 90_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  }).finally(() => clearTimeout(timer));
  // A tool the agent started in the background must not outlive the run.
  killGroup();
  return { agent: agent.name, ...directories, code, signal, timedOut, stdout, stderr };
}

/** Removes the temporary folders of a run. */
export function removeRunFolders(run: AgentDirectories): void {
  rmSync(join(run.home, '..'), { recursive: true, force: true });
}

/** The end of what a run printed, for a failing test's message. */
export function describeRun(run: AgentRun, characters = 4000): string {
  const tail = (text: string) => (text.length > characters ? `…${text.slice(-characters)}` : text);
  const ending = run.timedOut ? 'killed at its time limit' : `exited with ${run.code ?? run.signal}`;
  return `${run.agent} ${ending}\n--- stdout (tail) ---\n${tail(run.stdout)}\n--- stderr (tail) ---\n${tail(run.stderr)}`;
}
