import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

/** One JSON log line of a gateway process. */
export type LogEntry = { msg: string; pid: number } & Record<string, unknown>;

/** A gateway started with `model-gateway start` as a process of its own (with its workers, if any). */
export interface CliGatewayProcess {
  child: ChildProcess;
  /** Every JSON line written to stdout so far, by the process and its workers. */
  entries(): LogEntry[];
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves with the first log entry whose message matches and `where` accepts; rejects after the timeout or on exit. */
  waitForLog(pattern: RegExp, options?: { timeoutMilliseconds?: number; where?: (entry: LogEntry) => boolean }): Promise<LogEntry>;
  /** Resolves with `count` matching entries, once that many were written. */
  waitForLogs(pattern: RegExp, count: number, options?: { timeoutMilliseconds?: number; where?: (entry: LogEntry) => boolean }): Promise<LogEntry[]>;
}

/** Writes `config` to `<a fresh test directory>/gateway.yaml` (JSON is YAML) and returns the file. */
export function writeGatewayConfig(t: Test, config: Record<string, unknown>): string {
  const file = join(t.testdir({}), 'gateway.yaml');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * The TypeScript loader tap runs the tests with (tsx, `--import=tsx` in `.taprc`), as a file
 * URL, so a child runs `server/main.ts` from the sources as the tests do, with no build. The
 * child's working directory must be the repository, where tsx finds `tsconfig.json` (its
 * legacy decorators). The other entries of execArgv (mocks, the export condition) stay with the test.
 */
export function typescriptLoader(): string {
  return import.meta.resolve('tsx');
}

/**
 * Runs `model-gateway start --config <configFile>` from the sources and returns at once; wait
 * for its "Server listening at" lines. When the test ends, the process and every worker it
 * logged from are killed if still running.
 */
export function startCliGateway(t: Test, configFile: string): CliGatewayProcess {
  const environment: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete environment.NODE_OPTIONS;
  const main = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', typescriptLoader(), main, 'start', '--config', configFile], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const entries: LogEntry[] = [];
  const waiters = new Set<() => void>();
  let partial = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      try {
        entries.push(JSON.parse(line) as LogEntry);
      } catch {
        // Not a log line.
      }
    }
    for (const waiter of [...waiters]) waiter();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => setImmediate(() => [...waiters].forEach((waiter) => waiter())));
  t.teardown(() => {
    for (const pid of new Set([child.pid, ...entries.map((entry) => entry.pid)])) {
      if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  const waitForLogs: CliGatewayProcess['waitForLogs'] = (pattern, count, { timeoutMilliseconds = 60_000, where = () => true } = {}) =>
    new Promise((resolve, reject) => {
      const matching = () => entries.filter((entry) => pattern.test(entry.msg) && where(entry));
      const finish = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      const check = () => {
        const found = matching();
        if (found.length >= count) {
          finish();
          resolve(found.slice(0, count));
        } else if (child.exitCode !== null || child.signalCode !== null) {
          finish();
          reject(new Error(`the gateway exited with ${found.length} of ${count} lines matching ${pattern}; stderr:\n${stderr}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${matching().length} of ${count} lines matching ${pattern} in time; stdout:\n${entries.map((entry) => JSON.stringify(entry)).join('\n')}\nstderr:\n${stderr}`));
      }, timeoutMilliseconds);
      waiters.add(check);
      check();
    });

  return {
    child,
    entries: () => entries,
    stderr: () => stderr,
    exited,
    waitForLogs,
    waitForLog: async (pattern, options) => (await waitForLogs(pattern, 1, options))[0] as LogEntry,
  };
}

/** True while a process with this pid exists. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `http://127.0.0.1:<port>` from a "Server listening at" line. */
export function listeningUrl(entry: LogEntry): string {
  const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(entry.msg);
  if (match === null) throw new Error(`not a listening line: ${entry.msg}`);
  return match[1] as string;
}
