import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import t from 'tap';

/** The TypeScript loader tap runs this file with, so the child runs `demo/run-demo.ts` unbuilt (as cli.test.ts does). */
function typescriptLoader(): string {
  const fromTap = process.execArgv.find((argument) => /@tapjs[\\/]typescript/.test(argument));
  if (fromTap !== undefined) return fromTap.replace(/^--import=/, '');
  return import.meta.resolve('@tapjs/typescript/import');
}

/**
 * Splits a command line the way a POSIX shell does for the quoting the demo prints: words
 * separated by spaces, single-quoted text taken literally, a backslash escaping one character.
 * Any other shell syntax fails the test, so a change in how the demo quotes is noticed.
 */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index] as string;
    if (character === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (character === "'") {
      const end = line.indexOf("'", index + 1);
      if (end === -1) throw new Error(`unterminated quote in: ${line}`);
      word = (word ?? '') + line.slice(index + 1, end);
      index = end;
    } else if (character === '\\') {
      word = (word ?? '') + (line[index + 1] ?? '');
      index += 1;
    } else if (/["$`;&|<>()]/.test(character)) {
      throw new Error(`unexpected shell syntax ${character} in: ${line}`);
    } else {
      word = (word ?? '') + character;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Sends what a printed `curl` line asks for (only the options the demo uses) with fetch. */
async function runCurl(line: string): Promise<{ status: number; text: string }> {
  const [program, ...words] = shellWords(line);
  if (program !== 'curl') throw new Error(`not a curl command: ${line}`);
  let url: string | undefined;
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index] as string;
    if (word === '-s' || word === '-sN') continue;
    if (word === '-H' || word === '-d') {
      const value = words[(index += 1)] ?? '';
      if (word === '-d') body = value;
      else headers[value.slice(0, value.indexOf(':')).trim()] = value.slice(value.indexOf(':') + 1).trim();
    } else if (word.startsWith('-')) {
      throw new Error(`unexpected curl option ${word}`);
    } else {
      url = word;
    }
  }
  if (url === undefined) throw new Error(`no URL in: ${line}`);
  const response = await fetch(url, { method: body === undefined ? 'GET' : 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

t.test('the demo prints a key and curl commands that work, and stops cleanly on Ctrl-C', async (t) => {
  const environment: NodeJS.ProcessEnv = { ...process.env, TS_NODE_TRANSPILE_ONLY: '1' };
  delete environment.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', typescriptLoader(), fileURLToPath(new URL('../../demo/run-demo.ts', import.meta.url)), '--port', '0'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the demo printed no commands in time; stdout:\n${output}\nstderr:\n${errors}`)), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Serving until Ctrl-C.')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => reject(new Error(`the demo exited early (${code}); stderr:\n${errors}`)));
  });

  t.match(output, /API key +sk-[0-9A-Za-z]{48}\n/, 'prints the API key');
  const configFile = /config +(\S+)/.exec(output)?.[1] as string;
  t.ok(existsSync(configFile), 'its config file exists while it runs');
  const commands = output.split('\n').filter((line) => line.startsWith('curl '));
  t.equal(commands.length, 7, 'one command per route it shows');

  const chat = commands.find((line) => line.includes('/v1/chat/completions') && !line.includes('"stream":true')) as string;
  const answered = await runCurl(chat);
  t.equal(answered.status, 200, 'the printed chat request succeeds');
  t.equal(JSON.parse(answered.text).choices[0].message.content, 'echo: Hello, gateway!');
  for (const command of commands.filter((line) => line !== chat)) {
    const { status, text } = await runCurl(command);
    t.equal(status, 200, `${command.slice(0, 90)}... answers 200 (${text.slice(0, 200)})`);
  }

  child.kill('SIGINT');
  t.equal(await exited, 0, 'Ctrl-C exits 0');
  t.notOk(existsSync(configFile), 'and removes its temporary directory');
});
