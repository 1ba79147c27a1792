import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { typescriptLoader } from '../helpers/cli-gateway-process.js';

/** A line the demo printed for pasting, with the comment above it. */
interface PrintedCommand {
  title: string;
  line: string;
  method: 'GET' | 'POST';
  url: URL;
  /** The JSON body of a `-d` line. */
  body: Record<string, any> | undefined;
}

/** What a printed line did when the shell ran it. */
interface Answer {
  exitCode: number;
  /** The HTTP status curl reported (through the test's curlrc, below). */
  status: number;
  /** Standard output without that report: the body, or the headers of a line that saves the body to a file. */
  text: string;
  /** The directory the line ran in (a file it saved is there). */
  directory: string;
}

const statusMarker = '@@demo-test-status ';

/**
 * Every command the demo printed: the lines between its "Paste any line" sentence and "Serving
 * until Ctrl-C." that are neither blank nor comments. Each must be a curl line.
 */
function printedCommands(output: string): PrintedCommand[] {
  const start = output.indexOf('Paste any line below');
  const end = output.indexOf('Serving until Ctrl-C.');
  const lines = output.slice(output.indexOf('\n', start) + 1, end).split('\n');
  const commands: PrintedCommand[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    if (!line.startsWith('curl ')) throw new Error(`a printed line that is not a curl command: ${line}`);
    const url = /'(https?:\/\/[^']+)'/.exec(line)?.[1];
    if (url === undefined) throw new Error(`no URL in: ${line}`);
    const data = /-d '((?:[^']|'\\'')*)'/.exec(line)?.[1];
    commands.push({
      title: (lines[index - 1] ?? '').replace(/^# /, ''),
      line,
      method: data !== undefined || line.includes(' -F ') ? 'POST' : 'GET',
      url: new URL(url),
      body: data === undefined ? undefined : JSON.parse(data.replaceAll(`'\\''`, "'")),
    });
  });
  return commands;
}

/**
 * Runs `line` as a user pasting it would: `/bin/sh -c` with the real curl, in a fresh directory.
 * CURL_HOME points curl at a config that adds only a `--write-out` of the HTTP status, so the
 * test sees the status without changing the line.
 */
function runInShell(line: string, curlHome: string): Promise<Answer> {
  const directory = mkdtempSync(join(tmpdir(), 'demo-line-'));
  const environment: NodeJS.ProcessEnv = { ...process.env, CURL_HOME: curlHome };
  for (const name of ['http_proxy', 'https_proxy', 'all_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY']) delete environment[name];
  return new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { cwd: directory, env: environment, timeout: 15_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      const at = stdout.lastIndexOf(`\n${statusMarker}`);
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({
        exitCode,
        status: at === -1 ? 0 : Number(stdout.slice(at + statusMarker.length + 1).trim()),
        text: at === -1 ? stdout : stdout.slice(0, at),
        directory,
      });
    });
  });
}

const expectedImageModels = ['dsr-4-0-250828', 'gi-2', 'gx-2.5-flash-image', 'qi-plus'];
const expectedVideoModels = ['dsx-1-0-pro-250528', 'hx-1.0-t2v', 'sdx-2-0', 'sr-2', 'vo-3.0-fast-generate-001', 'wn2.5-t2v-preview', 'wn2.7-t2v-2026-04-25'];
const taskStatuses = ['queued', 'in_progress', 'succeeded', 'completed'];

/** The `data:` payloads of a server-sent event stream, in order. */
const eventData = (text: string) => text.split(/\r?\n/).filter((line) => line.startsWith('data: ')).map((line) => line.slice(6));

const isImage = (bytes: Buffer) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) || bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

/** What a user checks in the answer of each kind of printed line; a line of any other route fails the test. */
const expectations: Array<{ route: RegExp; check(t: Test, answer: Answer, command: PrintedCommand): Promise<void> | void }> = [
  {
    route: /^GET \/v1\/models$/,
    check: (t, { text }) => {
      const ids = JSON.parse(text).data.map((model: { id: string }) => model.id);
      t.ok(ids.includes('gx-2.5-pro') && ids.includes('sdx-2-0') && ids.includes('tts-1'), `lists the models of every family (${ids.length})`);
    },
  },
  {
    route: /^POST \/v1\/chat\/completions$/,
    check: (t, { text }, { body }) => {
      if (body?.stream !== true) {
        t.equal(JSON.parse(text).choices[0].message.content, 'echo: Hello, gateway!', 'choices[0].message.content is the answer');
        return;
      }
      const events = eventData(text);
      t.equal(events.at(-1), '[DONE]', 'the stream ends with data: [DONE]');
      const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
      t.equal(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join(''), 'echo: Hello, gateway!', 'its deltas spell the answer');
      t.ok(chunks.at(-1).usage.total_tokens > 0, 'the last chunk carries usage');
    },
  },
  {
    route: /^POST \/v1\/responses$/,
    check: (t, { text }) => {
      const response = JSON.parse(text);
      t.match(response, { object: 'response', status: 'completed' });
      const said = response.output.flatMap((item: { content?: Array<{ text?: string }> }) => item.content ?? []).map((part: { text?: string }) => part.text).join('');
      t.equal(said, 'echo: Hello, gateway!', 'its output text is the answer');
    },
  },
  {
    route: /^POST \/v1beta\/models\/[^/]+:generateContent$/,
    check: (t, { text }) => t.type(JSON.parse(text).candidates[0].content.parts[0].text, 'string', 'candidates[0] has text'),
  },
  {
    route: /^POST \/v1beta\/models\/[^/]+:streamGenerateContent$/,
    check: (t, { text }) => {
      const events = eventData(text).map((event) => JSON.parse(event));
      t.ok(events.length > 0 && events.every((event) => Array.isArray(event.candidates)), `${events.length} events, each with candidates`);
      t.ok(events.at(-1).candidates[0].finishReason, 'the last one says why it finished');
    },
  },
  {
    route: /^POST \/v1beta\/models\/[^/]+:embedContent$/,
    check: (t, { text }) => {
      const values: unknown[] = JSON.parse(text).embedding.values;
      t.ok(values.length > 0 && values.every((value) => typeof value === 'number'), `an embedding of ${values.length} numbers`);
    },
  },
  {
    route: /^POST \/v1\/audio\/speech$/,
    check: (t, { text, directory }, { line }) => {
      t.match(text, /^content-type: audio\/mpeg\r?$/im, 'the printed headers say audio/mpeg');
      const file = /-o '([^']+)'/.exec(line)?.[1] as string;
      t.ok(readFileSync(join(directory, file)).length > 0, `${file} holds the audio`);
    },
  },
  {
    route: /^POST \/v1\/audio\/transcriptions$/,
    check: (t, { text }) => t.ok(JSON.parse(text).text.length > 0, 'the transcript is text'),
  },
  {
    route: /^POST \/v1\/images\/generations$/,
    check: async (t, { text }) => {
      const [image] = JSON.parse(text).data;
      if (typeof image.b64_json === 'string' && image.b64_json !== '') {
        t.ok(isImage(Buffer.from(image.b64_json, 'base64')), 'data[0].b64_json is an image');
        return;
      }
      const fetched = await fetch(image.url);
      t.equal(fetched.status, 200, 'data[0].url can be fetched');
      t.ok(isImage(Buffer.from(await fetched.arrayBuffer())), 'and is an image');
    },
  },
  {
    route: /^POST \/v1\/video\/generations$/,
    check: (t, { text }) => t.match(JSON.parse(text), { task_id: /^video_\w{24}$/, status: 'submitted' }),
  },
  {
    route: /^GET \/v1\/video\/generations\/video_\w+$/,
    check: (t, { text }, { url }) => {
      const task = JSON.parse(text);
      t.equal(task.task_id, url.pathname.split('/').at(-1), 'answers the task of the line');
      t.ok(taskStatuses.includes(task.status), `its status is ${task.status}`);
    },
  },
  {
    route: /^POST \/v1\/asset-groups$/,
    check: (t, { text }) => t.match(JSON.parse(text), { id: /^group-/, object: 'asset_group', name: 'my-cast' }),
  },
  {
    route: /^POST \/v1\/assets$/,
    check: (t, { text }, { body }) => t.match(JSON.parse(text), { id: /^asset-/, object: 'asset', group_id: body?.group_id, status: 'processing', reference: /^asset:\/\// }),
  },
  {
    route: /^GET \/v1\/assets$/,
    check: (t, { text }) => t.match(JSON.parse(text), { object: 'list', data: [{ object: 'asset' }] }),
  },
  {
    route: /^GET \/api\/token\/$/,
    check: (t, { text }) => t.match(JSON.parse(text), { data: { items: [{ name: 'demo', unlimited_quota: true }] } }),
  },
];

t.test('the demo prints a curl line for every route group and family, each one answers when pasted into a shell, and Ctrl-C stops it cleanly', async (t) => {
  const environment: NodeJS.ProcessEnv = { ...process.env };
  delete environment.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', typescriptLoader(), fileURLToPath(new URL('../../demo/run-demo.ts', import.meta.url)), '--port', '0'], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const curlHome = mkdtempSync(join(tmpdir(), 'demo-curl-home-'));
  writeFileSync(join(curlHome, '.curlrc'), `write-out = "\\n${statusMarker}%{http_code}\\n"\n`);
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(curlHome, { recursive: true, force: true });
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
  const commands = printedCommands(output);

  const routes = new Set(commands.map(({ method, url }) => `${method} ${url.pathname}`));
  for (const route of ['POST /v1/chat/completions', 'POST /v1/responses', 'POST /v1/audio/speech', 'POST /v1/audio/transcriptions', 'POST /v1/asset-groups', 'POST /v1/assets']) {
    t.ok(routes.has(route), `a line for ${route}`);
  }
  t.ok(commands.some(({ url, body }) => url.pathname === '/v1/chat/completions' && body?.stream === true), 'a line for streamed chat');
  for (const method of ['generateContent', 'streamGenerateContent', 'embedContent']) t.ok(commands.some(({ url }) => url.pathname.endsWith(`:${method}`)), `a line for native ${method}`);
  const modelsOf = (path: string) => commands.filter(({ url }) => url.pathname === path).map(({ body }) => body?.model as string).sort();
  t.same(modelsOf('/v1/images/generations'), expectedImageModels, 'an image line for each family');
  t.same(modelsOf('/v1/video/generations'), expectedVideoModels, 'a video submit line for each family');
  const polls = commands.filter(({ method, url }) => method === 'GET' && url.pathname.startsWith('/v1/video/generations/'));
  t.equal(polls.length, expectedVideoModels.length, 'and a poll line for each');

  let answered = 0;
  for (const command of commands) {
    const answer = await runInShell(command.line, curlHome);
    t.teardown(() => rmSync(answer.directory, { recursive: true, force: true }));
    const name = `${command.title}: ${command.method} ${command.url.pathname}`;
    t.equal(answer.exitCode, 0, `${name}: curl exits 0`);
    t.ok(answer.status >= 200 && answer.status < 300, `${name}: answers ${answer.status} (${answer.text.slice(0, 300)})`);
    const expectation = expectations.find(({ route }) => route.test(`${command.method} ${command.url.pathname}`));
    if (expectation === undefined) {
      t.fail(`${name}: the test knows no answer to expect from this route; add one to its expectations`);
      continue;
    }
    await t.test(name, async (t) => expectation.check(t, answer, command));
    answered += 1;
  }
  t.equal(answered, commands.length, `all ${commands.length} printed lines ran and answered as expected`);

  child.kill('SIGINT');
  t.equal(await exited, 0, 'Ctrl-C exits 0');
  t.notOk(existsSync(configFile), 'and removes its temporary directory');
});
