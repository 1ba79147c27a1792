import t from 'tap';
import { QuotaLedger, type Reservation } from '../../../core/billing/quota-ledger.js';
import { BudgetPolicy } from '../../../core/budgets/budget-policy.js';
import { InjectionTokens } from '../../../core/di/injection-tokens.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { createStoreBackend } from '../../../core/store/create-store-backend.js';
import { LeaseKeeper } from '../../../core/store/lease-keeper.js';
import type { TokenView } from '../../../core/tokens/token-record.js';
import { createGatewayContainer } from '../../../server/create-container.js';
import { capturingLogger } from '../../helpers/build-test-app.js';
import { storageDrivers, storageFor, testConfig } from '../../helpers/test-config.js';
import { testTokenRecord } from '../../helpers/test-token-record.js';

// The ledger's budgets on every driver, with the gateway's clock moved across midnight in
// Europe/Berlin instead of waited for: concurrent requests at the edge of a period and across
// its reset.

// A midnight still to come: Redis expires a window's key on its own clock, at the end the
// gateway's clock gave it, so a midnight in the past would have expired every window already.
// December, so Berlin is at UTC+1 whatever the year.
const year = new Date().getUTCFullYear() + 1;
const afterMidnight = Date.UTC(year, 11, 2, 23); // 00:00 on the 3rd in Berlin
const beforeMidnight = afterMidnight - 500; // 23:59:59.5 on the 2nd

for (const driver of storageDrivers) {
  t.test(`budgets in the ledger on the ${driver} driver`, async (t) => {
    const storage = storageFor(t, driver);
    const backend = await createStoreBackend(storage);
    t.teardown(() => backend.close());
    let now = beforeMidnight;
    const config = testConfig(storage, { budgets: { time_zone: 'Europe/Berlin' } });
    const { container } = createGatewayContainer({ config, configFile: '', logger: capturingLogger([]), backend, clock: { now: () => now } });
    const ledger = container.resolve(QuotaLedger);
    const leases = container.resolve(LeaseKeeper);
    t.teardown(() => {
      ledger.close();
      return leases.close();
    });
    const tokens = container.resolve(InjectionTokens.tokenRepository);
    const policy = container.resolve(BudgetPolicy);
    const createToken = async (fields: Partial<TokenView>, remainQuota = 1_000_000): Promise<TokenView> => {
      const id = await tokens.nextId();
      await tokens.insert(testTokenRecord(id, fields), remainQuota);
      return { ...((await tokens.get(id)) as TokenView), ...fields };
    };
    const dailyUsed = async (token: TokenView) => (await policy.statuses('token', token.id, token.budget, backend))[0]?.used;
    const attempt = (token: TokenView, units: number) =>
      ledger.reserve(token, units).then(
        (reservation) => reservation,
        (error: unknown) => {
          if (GatewayError.is(error) && error.code === 'budget_exceeded') return undefined;
          throw error;
        },
      );

    t.test('40 concurrent requests just before midnight: exactly the 10 that fit are granted; after midnight the new day grants 10 more', async (t) => {
      now = beforeMidnight;
      const token = await createToken({ budget: { daily: 100, mode: 'hard' } });
      const first = await Promise.all(Array.from({ length: 40 }, () => attempt(token, 10)));
      const granted = first.filter((reservation): reservation is Reservation => reservation !== undefined);
      t.equal(granted.length, 10);
      t.equal(await dailyUsed(token), 100, 'the day is full');
      now = afterMidnight;
      // The reset and the day before's settlements race: each settlement corrects the old day.
      const [, second] = await Promise.all([Promise.all(granted.map((reservation) => reservation.settle(6))), Promise.all(Array.from({ length: 40 }, () => attempt(token, 10)))]);
      const grantedAfter = second.filter((reservation): reservation is Reservation => reservation !== undefined);
      t.equal(grantedAfter.length, 10, 'the new day has its whole limit');
      t.equal(await dailyUsed(token), 100, 'and counts only its own requests');
      now = beforeMidnight;
      t.equal(await dailyUsed(token), 60, 'the day before counts what its requests were charged, 10 × 6');
      now = afterMidnight;
      await Promise.all(grantedAfter.map((reservation) => reservation.refund()));
      t.equal(await dailyUsed(token), 0, 'refunds give the new day back its units');
      t.match(await tokens.get(token.id), { used_quota: 60, remain_quota: 1_000_000 - 60 }, 'the quota moved exactly with the charges');
    });

    t.test("a token's and its user's budgets are counted together, and the first that does not fit refuses with its period and reset", async (t) => {
      now = afterMidnight;
      const token = await createToken({ user_id: 9, budget: { weekly: 1000, mode: 'hard' }, owner_budget: { daily: 30, mode: 'hard' } });
      const reservation = await ledger.reserve(token, 25);
      const error = await ledger.reserve(token, 10).then(
        () => undefined,
        (refused: unknown) => refused,
      );
      t.ok(GatewayError.is(error));
      t.match(error, { statusCode: 429, code: 'budget_exceeded', message: new RegExp(`daily budget of this API key's user has 5 of 30 left; it resets at ${year}-12-03T23:00:00\\.000Z`) });
      t.equal((error as GatewayError).headers?.['retry-after'], String(24 * 3600), 'Retry-After: until the next midnight in Berlin');
      await reservation.settle(20);
      t.same(
        (await policy.statuses('user', 9, token.owner_budget, backend)).map((status) => status.used),
        [20],
        "the user's day counts the charge",
      );
    });

    t.test('a soft budget grants past its limit and reports the crossing; an unlimited token is counted without its quota', async (t) => {
      now = afterMidnight;
      const soft = await createToken({ budget: { daily: 10, mode: 'soft' } });
      const over = await ledger.reserve(soft, 15);
      t.same(over.overBudget.map((budget) => `${budget.scope}:${budget.period}`), ['token:daily']);
      await over.settle(15);
      const unlimited = await createToken({ unlimited_quota: true, budget: { daily: 50, mode: 'hard' } }, 0);
      const held = await ledger.reserve(unlimited, 40);
      t.equal(held.units, 0, 'no quota is held');
      t.equal(await attempt(unlimited, 20), undefined, 'the budget refuses what does not fit');
      await held.settle(30);
      t.equal(await dailyUsed(unlimited), 30);
      t.match(await tokens.get(unlimited.id), { used_quota: 30, remain_quota: 0 }, 'used counts, remain is left alone');
    });
  });
}
