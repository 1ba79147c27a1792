// Records what each coding agent really sends, into test/fixtures/agents/<agent>/, for the
// translator tests: `node_modules/.bin/tsx test/agents/record-agent-requests.ts [agent...]`
// (after `npm install --prefix test/agents --no-save`). Each agent runs headless against the recorder
// (recorder/recording-server.ts), as the agent tests run it against the gateway, in two
// scenarios: a plain prompt, and a prompt the recorder answers with one call of the agent's
// shell tool, so the next request carries the tool's result. Not part of `npm test`.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from '../../core/testing/index.js';
import { codingAgents, type CodingAgent } from './coding-agents.js';
import { startRecordingServer } from './recorder/recording-server.js';
import type { RecorderScript } from './recorder/recorder-turn.js';
import { agentsPackageFolder, describeRun, removeRunFolders, runAgent } from './run-agent.js';

const fixturesFolder = fileURLToPath(new URL('../fixtures/agents/', import.meta.url));

/** Strings longer than this are cut (system prompts and tool descriptions run to thousands of characters). */
const longestString = 1000;

/** Headers that carry the API key; their values are replaced. `host` and `content-length` change with every run and with the cuts, so they are left out. */
const secretHeaders = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'x-gx-api-key']);
const droppedHeaders = new Set(['host', 'content-length']);

interface Scenario {
  name: string;
  prompt: string;
  script(agent: CodingAgent): RecorderScript;
}

const scenarios: Scenario[] = [
  { name: 'plain', prompt: 'Say hello.', script: () => ({ text: 'Hello from the recorder.' }) },
  {
    name: 'tool',
    prompt: 'Write the word recorded into marker.txt with the shell.',
    script: (agent) => ({ text: 'Done.', call: agent.shellCall('echo recorded > marker.txt') }),
  },
];

const cutStrings = (value: unknown): unknown => {
  if (typeof value === 'string') return value.length > longestString ? `${value.slice(0, longestString)}…[cut ${value.length - longestString} characters]` : value;
  if (Array.isArray(value)) return value.map(cutStrings);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, cutStrings(member)]));
  return value;
};

function trimmed(request: RecordedRequest): Record<string, unknown> {
  const headers = Object.fromEntries(
    Object.entries(request.headers)
      .filter(([name]) => !droppedHeaders.has(name))
      .map(([name, value]) => [name, secretHeaders.has(name) ? '<the API key, removed>' : value]),
  );
  return { method: request.method, path: request.path, query: request.query, headers, body: cutStrings(request.json ?? request.text) };
}

const versionOf = (agent: CodingAgent): string =>
  (JSON.parse(readFileSync(join(agentsPackageFolder, 'node_modules', agent.packageName, 'package.json'), 'utf8')) as { version: string }).version;

async function record(agent: CodingAgent, scenario: Scenario): Promise<void> {
  const script = scenario.script(agent);
  const recorder = await startRecordingServer(script);
  try {
    const run = await runAgent(agent, { baseUrl: recorder.url, apiKey: 'sk-recorder0000000000000000000000', model: 'gx-2.5-pro', prompt: scenario.prompt, timeoutMs: 120_000 });
    removeRunFolders(run);
    if (run.code !== 0) throw new Error(describeRun(run));
    const folder = join(fixturesFolder, agent.name);
    mkdirSync(folder, { recursive: true });
    const recording = {
      agent: agent.packageName,
      version: versionOf(agent),
      recordedAt: new Date().toISOString().slice(0, 10),
      scenario: scenario.name,
      prompt: scenario.prompt,
      recorderScript: script,
      requests: recorder.requests.map(trimmed),
    };
    writeFileSync(join(folder, `${scenario.name}.json`), `${JSON.stringify(recording, null, 2)}\n`);
    console.log(`${agent.name} ${scenario.name}: ${recorder.requests.length} requests (${recorder.requests.map((request) => `${request.method} ${request.path}`).join(', ')})`);
  } finally {
    await recorder.close();
  }
}

const wanted = process.argv.slice(2);
for (const agent of codingAgents.filter((candidate) => wanted.length === 0 || wanted.includes(candidate.name))) {
  for (const scenario of scenarios) await record(agent, scenario);
}
