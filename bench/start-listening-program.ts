import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A server running as its own Node process. */
export interface ServerProcess {
  /** Its origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** Its process id, for memory readings. */
  pid: number;
  /** Sends SIGTERM and resolves once the process has exited. */
  stop(): Promise<void>;
}

/** Sends SIGTERM to `child` and resolves when it has exited (at once if it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node <script> [...args]` (a program of this folder that prints `listening <url>`
 * once it serves) and resolves when it has printed that line.
 */
export function startListeningProgram(script: URL, args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [fileURLToPath(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const failed = (code: number | null) => reject(new Error(`${fileURLToPath(script)} exited (${code}) before listening`));
    child.once('exit', failed);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /^listening (\S+)$/m.exec(output);
      if (match === null) return;
      child.off('exit', failed);
      child.stdout?.removeAllListeners('data').resume();
      resolve({ url: match[1] as string, pid: child.pid as number, stop: () => stopChild(child) });
    });
  });
}
