import t from 'tap';
import { readAnswer, type ReadAnswer } from '../faults/process-http.js';
import { httpCall } from '../helpers/http-call.js';
import { multiInstanceCases } from '../helpers/multi-instance-cases.js';
import { balanceAt, issueSceneToken, sleep, startMultiInstanceScene, unitsPerCall, type Balance } from '../helpers/multi-instance-scene.js';
import { storageFor } from '../helpers/test-config.js';

// Three gateways on one PostgreSQL schema, as on three machines: each its own port and data
// directory, one schema and one encryption key between them. The third runs `server.workers:
// 2`, so the cases also hold across the workers of one machine. They start once for every case;
// the last case kills the first with SIGKILL.

const scene = await startMultiInstanceScene(t, storageFor(t, 'postgres'), [1, 1, 2]);

t.test('three gateways on one PostgreSQL, one of them with two workers', async (t) => multiInstanceCases(t, scene));

t.test('kill -9 of one of them in the middle of a load loses nothing acknowledged', async (t) => {
  const startingQuota = 5_000_000;
  const token = await issueSceneToken(scene, scene.bases[0] as string, { remain_quota: startingQuota });
  const [victim, ...survivors] = scene.instances as [(typeof scene.instances)[0], ...typeof scene.instances];
  let killed = false;
  let running = true;

  /** One model request's outcome: `refused` when no answer came at all (the process was gone). */
  interface Outcome {
    instance: number;
    afterKill: boolean;
    answer: ReadAnswer | 'refused';
  }
  const outcomes: Outcome[] = [];
  const answered = (outcome: Outcome) => outcome.answer !== 'refused' && outcome.answer.status === 200 && outcome.answer.ending === 'complete';
  const acknowledgedNames: string[] = [];
  const attemptedNames: string[] = [];

  const chatLoop = async (instance: number) => {
    for (let count = 0; running && !(instance === 0 && killed); count += 1) {
      const afterKill = killed;
      const answer = await readAnswer(`${scene.bases[instance]}/v1/chat/completions`, {
        headers: token.bearer,
        body: { model: 'gp-mini', messages: [{ role: 'user', content: `load ${instance}-${count}` }] },
      }).catch((): 'refused' => 'refused');
      outcomes.push({ instance, afterKill, answer });
    }
  };
  // Token changes acknowledged by each instance, the victim's up to the kill.
  const createLoop = async (instance: number) => {
    for (let count = 0; count < 20 && running && !(instance === 0 && killed); count += 1) {
      const name = `kill-load-${instance}-${count}`;
      attemptedNames.push(name);
      const answer = await httpCall(`${scene.bases[instance]}/api/token/`, { headers: scene.asOperator, body: { name, remain_quota: 4242 } }).catch(() => undefined);
      if (answer?.status === 200 && answer.json().success === true) acknowledgedNames.push(name);
    }
  };
  const load = scene.bases.flatMap((_, instance) => [chatLoop(instance), chatLoop(instance), chatLoop(instance), createLoop(instance)]);

  const answeredBy = (instance: number, afterKill: boolean) => outcomes.filter((outcome) => outcome.instance === instance && outcome.afterKill === afterKill && answered(outcome)).length;
  for (const until = Date.now() + 30_000; answeredBy(0, false) < 20 && Date.now() < until; ) await sleep(10);
  victim.process.child.kill('SIGKILL');
  killed = true;
  t.equal(await victim.process.exited, null, 'the first gateway died of the signal');
  for (const until = Date.now() + 30_000; answeredBy(1, true) + answeredBy(2, true) < 30 && Date.now() < until; ) await sleep(10);
  running = false;
  await Promise.all(load);

  t.ok(answeredBy(0, false) >= 20, `the first gateway answered ${answeredBy(0, false)} requests before the kill`);
  t.ok(answeredBy(1, true) + answeredBy(2, true) >= 30, 'the others kept answering after it');
  t.same(
    outcomes.filter((outcome) => outcome.instance !== 0 && !answered(outcome)).map((outcome) => (outcome.answer === 'refused' ? 'refused' : outcome.answer.status)),
    [],
    'the others answered every request with 200',
  );
  const answeredCount = outcomes.filter(answered).length;
  // A request in flight on the killed gateway may have been settled (or still hold its
  // reservation) without its client hearing the answer; only those can be charged besides.
  const cutByKill = outcomes.filter((outcome) => outcome.instance === 0 && !answered(outcome) && outcome.answer !== 'refused').length;
  const refusedByKill = outcomes.filter((outcome) => outcome.instance === 0 && outcome.answer === 'refused').length;
  const inFlightAtKill = cutByKill + refusedByKill;
  t.comment(`${answeredCount} answered, ${inFlightAtKill} in flight on the killed gateway`);

  let balances: Balance[] = [];
  for (const until = Date.now() + 5000; Date.now() < until; await sleep(20)) {
    balances = await Promise.all(survivors.map((survivor) => balanceAt(scene, survivor.base, token.id)));
    if (balances.every((balance) => balance.used_quota >= answeredCount * unitsPerCall)) break;
  }
  t.same(balances[1], balances[0], 'both survivors report the same figures');
  const [balance] = balances as [Balance];
  t.ok(balance.used_quota >= answeredCount * unitsPerCall, `each of the ${answeredCount} answered requests is billed (${balance.used_quota} units)`);
  t.ok(balance.used_quota <= (answeredCount + inFlightAtKill) * unitsPerCall, `and none twice: at most the ${inFlightAtKill} in flight at the kill besides`);
  t.equal(balance.used_quota % unitsPerCall, 0, 'in whole requests');
  const held = startingQuota - balance.remain_quota - balance.used_quota;
  t.ok(held >= 0 && held <= inFlightAtKill * unitsPerCall, `what is neither spent nor left (${held}) is at most the reservations of the requests in flight at the kill`);

  const found = await httpCall(`${survivors[0]?.base}/api/token/search?keyword=kill-load&size=100`, { headers: scene.asOperator });
  const stored = found.json().data.items as Array<{ name: string; remain_quota: number }>;
  const storedNames = new Set(stored.map((entry) => entry.name));
  t.same(acknowledgedNames.filter((name) => !storedNames.has(name)), [], `every one of the ${acknowledgedNames.length} acknowledged token creations is stored`);
  t.ok(stored.every((entry) => entry.remain_quota === 4242 && attemptedNames.includes(entry.name)), 'each whole, and nothing that was not asked for');
});
