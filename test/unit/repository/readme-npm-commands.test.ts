import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseDemoArguments } from '../../../demo/demo-arguments.js';

// The npm commands the README and docs/ give work as written: each `npm run <script> -- <args>`
// names a script of package.json, and npm hands the arguments to the program the script ends
// with (not to the build that runs first), a program the build writes from a source file of
// the repository. npm runs each script through a recording shell here (`--script-shell`), so
// nothing is built or started: the command npm would run is checked, not run.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const documents = ['README.md', ...readdirSync(join(root, 'docs')).filter((file) => file.endsWith('.md')).map((file) => `docs/${file}`)];
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
/** The folders the build transpiles into dist/ (tsconfig.build.json, which scripts/build.ts reads). */
const built = (JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] }).include;

/** Every distinct `npm start`, `npm test` and `npm run <script> [-- <args>]` of the documents, with where it is written. */
function documentedCommands(): { script: string; args: string[]; where: string }[] {
  const found = new Map<string, { script: string; args: string[]; where: string }>();
  for (const document of documents) {
    readFileSync(join(root, document), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const [, start, script, rest] of line.matchAll(/npm (?:(start|test)|run ([a-z][\w:-]*))(?: -- ((?:[^\s`)#;&|]+ ?)+))?/g)) {
          const args = (rest ?? '').trim().split(/\s+/).filter((arg) => arg !== '');
          const name = start ?? (script as string);
          const key = [name, ...args].join(' ');
          if (!found.has(key)) found.set(key, { script: name, args, where: `${document}:${index + 1}` });
        }
      });
  }
  return [...found.values()];
}

/** A shell that writes the command npm gives it (`sh -c <command>`) to a file and runs nothing. */
function recordingShell(directory: string): { shell: string; recorded: () => string } {
  const shell = join(directory, 'record-shell');
  const record = join(directory, 'command.txt');
  writeFileSync(shell, `#!/bin/sh\nprintf '%s' "$2" > '${record}'\n`);
  chmodSync(shell, 0o755);
  return { shell, recorded: () => readFileSync(record, 'utf8') };
}

/** The command `npm run <script> -- <args>` would run, through the recording shell. */
function npmCommand(shell: string, recorded: () => string, script: string, args: string[]): { status: number | null; command: string; stderr: string } {
  const run = spawnSync('npm', ['run', '--script-shell', shell, script, ...(args.length > 0 ? ['--', ...args] : [])], { cwd: root, encoding: 'utf8' });
  return { status: run.status, command: run.status === 0 ? recorded() : '', stderr: run.stderr };
}

/** The source file of a `node dist/<path>.js` command, if it runs one. */
function sourceOf(command: string): string | undefined {
  const program = /^node (dist\/\S+)\.js\b/.exec(command)?.[1];
  return program === undefined ? undefined : `${program.slice('dist/'.length)}.ts`;
}

const commands = documentedCommands();

t.test('the documents give the npm commands a newcomer runs', async (t) => {
  const written = commands.map(({ script, args }) => [script, ...args].join(' '));
  for (const expected of ['start', 'test', 'demo', 'demo --port 8080', 'demo --help']) t.ok(written.includes(expected), expected);
});

for (const { script, args, where } of commands) {
  if (script === 'test') continue; // `npm test` is the run this test is part of.
  t.test(`npm ${script === 'start' ? 'start' : `run ${script}`}${args.length > 0 ? ` -- ${args.join(' ')}` : ''} (${where}) runs a program of the repository with those arguments`, async (t) => {
    t.ok(manifest.scripts[script], `package.json has the script "${script}"`);
    const { shell, recorded } = recordingShell(t.testdir({}));
    const { status, command, stderr } = npmCommand(shell, recorded, script, args);
    t.equal(status, 0, `npm runs it${stderr === '' ? '' : `: ${stderr}`}`);
    const last = command.split('&&').at(-1)?.trim() ?? '';
    if (args.length > 0) t.ok(last.endsWith(` ${args.join(' ')}`), `the arguments reach the last command: ${command}`);
    const source = sourceOf(last);
    if (source === undefined) return;
    t.ok(existsSync(join(root, source)), `${last} is built from ${source}`);
    t.ok(built.includes(source.split('/')[0] as string), `which the build transpiles (tsconfig.build.json)`);
  });
}

t.test('the demo takes every argument the documents pass it', async (t) => {
  for (const { args, where } of commands.filter(({ script, args }) => script === 'demo' && args.length > 0)) {
    t.doesNotThrow(() => parseDemoArguments(args, {}), `${args.join(' ')} (${where})`);
  }
  t.same(parseDemoArguments(['--port', '8080'], {}), { help: false, host: '127.0.0.1', port: 8080 }, 'the port given is the port listened on');
});

t.test('the model-gateway command the docs name is the package bin, built from server/main.ts', async (t) => {
  t.equal(manifest.bin['model-gateway'], 'dist/server/main.js');
  t.ok(existsSync(join(root, 'server/main.ts')));
});
