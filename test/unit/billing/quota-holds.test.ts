import t, { type Test } from 'tap';
import { QuotaLedger } from '../../../core/billing/quota-ledger.js';
import { InjectionTokens } from '../../../core/di/injection-tokens.js';
import { createStoreBackend } from '../../../core/store/create-store-backend.js';
import { LeaseKeeper } from '../../../core/store/lease-keeper.js';
import type { StoreBackend } from '../../../core/store/store-backend.js';
import type { TokenView } from '../../../core/tokens/token-record.js';
import { createGatewayContainer } from '../../../server/create-container.js';
import { capturingLogger } from '../../helpers/build-test-app.js';
import { storageDrivers, storageFor, testConfig } from '../../helpers/test-config.js';
import { testTokenRecord } from '../../helpers/test-token-record.js';

/** Holds live one second here, so that a lease runs out within the test. */
const leaseSeconds = 1;
const pastOneLease = () => new Promise((resolve) => setTimeout(resolve, leaseSeconds * 1000 + 300));

/** Waits until `check` holds, trying every 50 ms, for at most 5 s (then the test fails on what it sees). */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100 && !(await check()); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** A store whose settlements fail while `refusing` is true, as a store does that cannot write for a moment. */
function refusingSettlements(backend: StoreBackend): { backend: StoreBackend; refuse: (on: boolean) => void } {
  let refusing = false;
  const proxy = new Proxy(backend, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'settle') return (...args: Parameters<StoreBackend['settle']>) => (refusing ? Promise.reject(new Error('the store refuses writes')) : target.settle(...args));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { backend: proxy, refuse: (on) => (refusing = on) };
}

for (const driver of storageDrivers) {
  t.test(`quota holds with a lease on the ${driver} driver`, async (t) => {
    const storage = { ...storageFor(t, driver), lease_seconds: leaseSeconds };
    const shared = await createStoreBackend(storage);
    t.teardown(() => shared.close());
    const refusing = refusingSettlements(shared);
    /** One gateway instance on the shared store: its ledger and lease keeper. */
    const instance = (backend: StoreBackend = shared) => {
      const { container } = createGatewayContainer({ config: testConfig(storage), configFile: '', logger: capturingLogger([]), backend });
      const leases = container.resolve(LeaseKeeper);
      const ledger = container.resolve(QuotaLedger);
      t.teardown(() => {
        ledger.close();
        return leases.close();
      });
      return { ledger, leases, tokens: container.resolve(InjectionTokens.tokenRepository) };
    };
    const survivor = instance();
    const createToken = async (remainQuota: number): Promise<TokenView> => {
      const id = await survivor.tokens.nextId();
      await survivor.tokens.insert(testTokenRecord(id), remainQuota);
      return (await survivor.tokens.get(id)) as TokenView;
    };
    const quotaOf = async (token: TokenView) => {
      const { remain_quota, used_quota } = (await survivor.tokens.get(token.id)) as TokenView;
      return { remain_quota, used_quota };
    };

    t.test("the holds of an instance that stopped renewing are given back by another instance's sweeper once their lease runs out", async (t) => {
      const token = await createToken(1000);
      const dead = instance();
      await Promise.all([dead.ledger.reserve(token, 300), dead.ledger.reserve(token, 200)]);
      t.same(await quotaOf(token), { remain_quota: 500, used_quota: 0 });
      // The instance dies: it renews nothing any more, and never settles.
      dead.ledger.close();
      await dead.leases.close();
      await pastOneLease();
      await survivor.leases.renewAndSweep();
      t.same(await quotaOf(token), { remain_quota: 1000, used_quota: 0 }, 'every hold is back');
      await survivor.leases.renewAndSweep();
      t.same(await quotaOf(token), { remain_quota: 1000, used_quota: 0 }, 'and returned once');
    });

    t.test('a hold its instance keeps renewing is not swept, however long its request runs', async (t) => {
      const token = await createToken(1000);
      const reservation = await survivor.ledger.reserve(token, 300);
      for (let round = 0; round < 3; round += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        await survivor.leases.renewAndSweep();
      }
      t.same(await quotaOf(token), { remain_quota: 700, used_quota: 0 });
      await reservation.settle(100);
      t.same(await quotaOf(token), { remain_quota: 900, used_quota: 100 });
    });

    /** A token of 1000 units whose reservation of 300 an instance settled at 120 while the store refused writes. */
    const refusedSettlement = async (t: Test) => {
      const token = await createToken(1000);
      const reservation = await instance(refusing.backend).ledger.reserve(token, 300);
      refusing.refuse(true);
      await t.rejects(reservation.settle(120), /refuses writes/);
      return { token, reservation };
    };

    t.test('a settlement the store refused is tried again until it is written, charging what was delivered', async (t) => {
      const { token } = await refusedSettlement(t);
      await new Promise((resolve) => setTimeout(resolve, 400));
      refusing.refuse(false);
      await eventually(async () => (await quotaOf(token)).used_quota === 120);
      t.same(await quotaOf(token), { remain_quota: 880, used_quota: 120 });
    });

    t.test('a refund after a settlement the store refused (a JSON answer that was never sent) makes its retry a refund', async (t) => {
      const { token, reservation } = await refusedSettlement(t);
      await reservation.refund();
      refusing.refuse(false);
      await eventually(async () => (await quotaOf(token)).remain_quota === 1000);
      t.same(await quotaOf(token), { remain_quota: 1000, used_quota: 0 });
    });

    t.test('a settlement after the sweeper returned its hold gives nothing back again and charges what was delivered', async (t) => {
      const token = await createToken(1000);
      const stalled = instance();
      const reservation = await stalled.ledger.reserve(token, 300);
      await stalled.leases.close();
      await pastOneLease();
      await survivor.leases.renewAndSweep();
      t.same(await quotaOf(token), { remain_quota: 1000, used_quota: 0 });
      await reservation.settle(120);
      t.same(await quotaOf(token), { remain_quota: 880, used_quota: 120 });
    });

    t.test("a video task's detached hold is never swept, and its task settles it once", async (t) => {
      const token = await createToken(1000);
      const submitter = instance();
      const hold = (await submitter.ledger.reserve(token, 400)).detach();
      // The hand-over to the task is written in the background; the instance then dies.
      await submitter.leases.close();
      await pastOneLease();
      await survivor.leases.renewAndSweep();
      t.same(await quotaOf(token), { remain_quota: 600, used_quota: 0 }, 'the task still holds its quota');
      await survivor.ledger.settleHold(hold, 250);
      t.same(await quotaOf(token), { remain_quota: 750, used_quota: 250 });
    });
  });
}
