import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { isRunning, listeningUrl, typescriptLoader, type LogEntry } from '../helpers/cli-gateway-process.js';
import { chatBody, startGx } from '../helpers/gateway-scenario.js';
import { httpCall } from '../helpers/http-call.js';
import { issueProcessToken, processGatewayConfig } from './process-gateway.js';

// The gateway buffers its log lines and writes them asynchronously. A process stopped by a
// signal must still leave every line on disk: here stdout is a file, as under a process
// manager that redirects it, and the last request before the signal is looked for there.

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Runs a TypeScript file of the project from the sources, its stdout redirected to `logFile`. */
function runLoggingTo(script: string, args: readonly string[], logFile: string) {
  const environment: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info' };
  delete environment.NODE_OPTIONS;
  const output = openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', typescriptLoader(), fileURLToPath(new URL(script, import.meta.url)), ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: environment,
    stdio: ['ignore', output, 'pipe'],
  });
  closeSync(output);
  return child;
}

/** The JSON lines of a log file. */
const linesIn = (logFile: string): LogEntry[] =>
  readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LogEntry);

/** `model-gateway start` from the sources, its stdout redirected to `logFile`. */
function startGatewayLoggingTo(t: Test, configFile: string, logFile: string) {
  const child = runLoggingTo('../../server/main.ts', ['start', '--config', configFile], logFile);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  t.teardown(() => {
    if (child.pid !== undefined && isRunning(child.pid)) child.kill('SIGKILL');
  });
  /** The lines on disk now. */
  const entries = () => linesIn(logFile);
  /** The first line on disk that `matches`, once it is there. */
  const waitForEntry = async (matches: (entry: LogEntry) => boolean): Promise<LogEntry> => {
    for (let waited = 0; waited < 30_000; waited += 20) {
      const found = entries().find(matches);
      if (found !== undefined) return found;
      if (child.exitCode !== null) break;
      await sleep(20);
    }
    throw new Error(`no such line in ${logFile}; stderr:\n${stderr}`);
  };
  return { child, exited, entries, waitForEntry, stderr: () => stderr };
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`after ${signal}, the line of the last request answered is on disk`, async (t) => {
    const fake = await startGx(t);
    const setup = processGatewayConfig(t, fake.url);
    const logFile = join(setup.directory, 'gateway.log');
    const gateway = startGatewayLoggingTo(t, setup.file, logFile);
    const base = listeningUrl(await gateway.waitForEntry((entry) => /^Server listening at /.test(entry.msg)));
    const token = await issueProcessToken(base, setup);
    const chat = (requestId: string) =>
      httpCall(`${base}/v1/chat/completions`, { headers: { ...token.bearer, 'x-request-id': requestId }, body: chatBody(`hello from ${requestId}`) });

    for (let index = 0; index < 3; index += 1) t.equal((await chat(`before-${index}`)).status, 200);
    // Once those are on disk nothing is waiting in the buffer: the last line is the only one
    // the process still holds when the signal comes.
    await gateway.waitForEntry((entry) => entry.reqId === 'before-2');
    t.equal((await chat('the-last')).status, 200, 'the last request is answered');
    gateway.child.kill(signal);
    t.equal(await gateway.exited, 0, `the gateway exits 0 on ${signal}`);

    const entries = gateway.entries();
    const last = entries.filter((entry) => entry.reqId === 'the-last');
    t.equal(last.length, 1, "the last request's line is in the file");
    t.match(last[0], { msg: 'model request answered', route: 'POST /v1/chat/completions', status: 200, attempts: [{ outcome: 'success' }] });
    t.equal(entries.at(-1)?.msg, 'stopped', 'and so is every line after it, to "stopped"');
  });
}

t.test('after an uncaught exception, the line logged before it is on disk', async (t) => {
  const logFile = join(t.testdir({}), 'crash.log');
  const child = runLoggingTo('../fixtures/logging/crash-after-a-line.ts', [], logFile);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  t.equal(code, 1, 'the process dies of it');
  t.match(stderr, /a fatal error/, 'Node reports the exception');
  t.match(linesIn(logFile), [{ reqId: 'before-the-crash', msg: 'model request answered' }], 'the line is in the file');
});
