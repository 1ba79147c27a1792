import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import type { CodingAgent } from './agent-invocation.js';
import type { AgentGateway } from './agent-gateway.js';
import { describeRun, removeRunFolders, runAgent, type AgentRun } from './run-agent.js';
import { billedUnits, type ScriptedTurn, type ScriptedUpstream } from './scripted-upstreams.js';

/** How long one agent run may take before it is killed and the test fails. */
const runLimitMilliseconds = 150_000;

/** Runs `agent` against the gateway; a run that fails or times out fails the test with the agent's output. */
async function runAgainst(t: Test, agent: CodingAgent, gateway: AgentGateway, upstream: ScriptedUpstream, prompt: string): Promise<AgentRun> {
  const run = await runAgent(agent, { baseUrl: gateway.url, apiKey: gateway.apiKey, model: upstream.model, prompt, timeoutMs: runLimitMilliseconds });
  t.teardown(() => removeRunFolders(run));
  if (run.code !== 0) throw new Error(`the agent run failed: ${describeRun(run)}`);
  return run;
}

/**
 * The token's `used_quota` once it has grown by at least `units` since `before`. A stream is
 * settled after its last byte is sent, so the agent may have exited a moment before; this
 * waits for the settlement (up to 10 s), then returns what is there.
 */
async function quotaAfter(gateway: AgentGateway, before: number, units: number): Promise<number> {
  const until = Date.now() + 10_000;
  for (;;) {
    const used = await gateway.usedQuota();
    if (used - before >= units || Date.now() > until) return used;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A plain prompt: the model's answer comes in one streamed event per word; the agent must
 * print all of it, the gateway must have asked the upstream for a stream, and the token must
 * be billed exactly the upstream's usage at the model's price.
 */
export async function plainPromptAnswered(t: Test, gateway: AgentGateway, agent: CodingAgent, upstream: ScriptedUpstream): Promise<void> {
  const fake = upstream.fake(gateway);
  fake.reset();
  const turn: ScriptedTurn = { text: 'The gateway passed this answer on in nine streamed words.', usage: { input: 1_201, output: 13 } };
  fake.next(upstream.answer(turn));
  const before = await gateway.usedQuota();

  const run = await runAgainst(t, agent, gateway, upstream, 'Say hello.');
  t.match(run.stdout, 'The gateway passed this answer on in nine streamed words.', 'the agent prints the whole answer, put together from its streamed words');
  t.equal(fake.requests.length, 1, `one upstream request (${fake.requests.map((request) => request.path).join(', ')})`);
  t.ok(fake.requests.every((request) => upstream.streamed(request)), 'the upstream was asked for a stream');
  const expected = billedUnits(upstream.model, [turn]);
  t.equal((await quotaAfter(gateway, before, expected)) - before, expected, `the token is billed ${expected} units, the upstream's usage at the model's price`);
}

/**
 * A tool round trip: the model asks for the agent's shell tool with a command that writes a
 * file in the agent's work folder; the agent must run it, send its output back in the next
 * request (under the call's id or name), and print the model's closing answer; the token is
 * billed for both upstream answers exactly.
 */
export async function toolRoundTrip(t: Test, gateway: AgentGateway, agent: CodingAgent, upstream: ScriptedUpstream): Promise<void> {
  const fake = upstream.fake(gateway);
  fake.reset();
  const call = { id: 'call_agentTest0001', ...agent.shellCall('echo agent-tool-ran > marker.txt && echo marker-written') };
  const turns: ScriptedTurn[] = [
    { call, usage: { input: 2_003, output: 41 } },
    { text: 'The marker file is written.', usage: { input: 2_107, output: 9 } },
  ];
  for (const turn of turns) fake.next(upstream.answer(turn));
  const before = await gateway.usedQuota();

  const run = await runAgainst(t, agent, gateway, upstream, 'Write the marker file.');
  const marker = join(run.workdir, 'marker.txt');
  t.ok(existsSync(marker), 'the agent ran the command in its work folder');
  t.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : '', 'agent-tool-ran\n', 'the command wrote the file');
  t.equal(fake.requests.length, 2, `two upstream requests (${fake.requests.map((request) => request.path).join(', ')})`);
  t.equal(upstream.toolResult(fake.requests[0]!, call), undefined, 'the first request carries no tool result');
  const result = fake.requests[1] === undefined ? undefined : upstream.toolResult(fake.requests[1], call);
  t.match(result, /marker-written/, `the next request hands back the command's output for the call (${String(result)})`);
  t.match(run.stdout, 'The marker file is written.', "the agent prints the model's closing answer");
  const expected = billedUnits(upstream.model, turns);
  t.equal((await quotaAfter(gateway, before, expected)) - before, expected, `the token is billed ${expected} units for the two answers`);
}
