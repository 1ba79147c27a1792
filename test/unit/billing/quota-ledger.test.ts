import t from 'tap';
import { QuotaLedger } from '../../../core/billing/quota-ledger.js';
import { createGatewayContainer } from '../../../server/create-container.js';
import { InjectionTokens } from '../../../core/di/injection-tokens.js';
import { GatewayError } from '../../../core/errors/gateway-error.js';
import { createStoreBackend } from '../../../core/store/create-store-backend.js';
import { tokenInvalidationChannel } from '../../../core/tokens/token-invalidation.js';
import { TokenStatus, type TokenRecord, type TokenView } from '../../../core/tokens/token-record.js';
import { capturingLogger } from '../../helpers/build-test-app.js';
import { testTokenRecord } from '../../helpers/test-token-record.js';
import { storageDrivers, storageFor, testConfig } from '../../helpers/test-config.js';

const record = testTokenRecord;

for (const driver of storageDrivers) {
  t.test(`the quota ledger on the ${driver} driver`, async (t) => {
    const storage = storageFor(t, driver);
    const backend = await createStoreBackend(storage);
    t.teardown(() => backend.close());
    const logLines: string[] = [];
    const { container } = createGatewayContainer({ config: testConfig(storage), configFile: '', logger: capturingLogger(logLines), backend });
    const ledger = container.resolve(QuotaLedger);
    const tokens = container.resolve(InjectionTokens.tokenRepository);
    const invalidated: number[] = [];
    await backend.subscribe(tokenInvalidationChannel, (message) => invalidated.push(Number(message)));

    const createToken = async (remainQuota: number, fields: Partial<TokenRecord> = {}): Promise<TokenView> => {
      const id = await tokens.nextId();
      await tokens.insert(record(id, fields), remainQuota);
      return (await tokens.get(id)) as TokenView;
    };
    const current = async (token: TokenView) => (await tokens.get(token.id)) as TokenView;
    const announcements = async (token: TokenView) => {
      // Redis delivers published messages asynchronously.
      await new Promise((resolve) => setTimeout(resolve, 50));
      return invalidated.filter((id) => id === token.id).length;
    };

    t.test('is one service per container', async (t) => {
      t.equal(container.resolve(QuotaLedger), ledger);
    });

    t.test('a reservation holds units, and settling charges the actual cost: remain and used change together', async (t) => {
      const token = await createToken(1000);
      const reservation = await ledger.reserve(token, 300);
      t.equal(reservation.units, 300);
      t.match(await current(token), { remain_quota: 700, used_quota: 0 });
      await reservation.settle(120);
      t.match(await current(token), { remain_quota: 880, used_quota: 120, status: TokenStatus.enabled });
    });

    t.test('a cost above the reservation is taken from the rest of the balance', async (t) => {
      const token = await createToken(1000);
      await (await ledger.reserve(token, 100)).settle(250);
      t.match(await current(token), { remain_quota: 750, used_quota: 250 });
    });

    t.test('a reservation that does not fit is refused with 402 insufficient_quota saying what is needed and what is left', async (t) => {
      const token = await createToken(100);
      const error = (await ledger.reserve(token, 150).catch((caught: unknown) => caught)) as GatewayError;
      t.ok(GatewayError.is(error));
      t.match(error, { statusCode: 402, code: 'insufficient_quota', message: /needs 150 quota units.*has 100 left/ });
      t.match(await current(token), { remain_quota: 100, used_quota: 0, status: TokenStatus.enabled });
    });

    t.test('settling runs exactly once: a second settle and a refund after it change nothing', async (t) => {
      const token = await createToken(1000);
      const reservation = await ledger.reserve(token, 300);
      await Promise.all([reservation.settle(100), reservation.settle(100)]);
      await reservation.settle(500);
      await reservation.refund();
      t.match(await current(token), { remain_quota: 900, used_quota: 100 });
    });

    t.test('a refund gives back the whole reservation, and a settle after it changes nothing', async (t) => {
      const token = await createToken(1000);
      const reservation = await ledger.reserve(token, 400);
      await reservation.refund();
      t.match(await current(token), { remain_quota: 1000, used_quota: 0 });
      await reservation.settle(400);
      await reservation.refund();
      t.match(await current(token), { remain_quota: 1000, used_quota: 0 });
    });

    t.test('spending the last unit stores status 4 and announces the change', async (t) => {
      const token = await createToken(500);
      await (await ledger.reserve(token, 500)).settle(500);
      t.match(await current(token), { remain_quota: 0, used_quota: 500, status: TokenStatus.exhausted });
      t.equal(await announcements(token), 1);
    });

    t.test('a cost beyond what remains takes only what remains, never going below 0, and exhausts the token', async (t) => {
      const token = await createToken(100);
      await (await ledger.reserve(token, 60)).settle(1000);
      t.match(await current(token), { remain_quota: 0, used_quota: 100, status: TokenStatus.exhausted });
      t.ok(logLines.some((line) => line.includes('cost more than the token had left')));
    });

    t.test('a token is not marked exhausted while another of its reservations is still open', async (t) => {
      const token = await createToken(100);
      const first = await ledger.reserve(token, 60);
      const second = await ledger.reserve(token, 40);
      await first.settle(60);
      t.match(await current(token), { remain_quota: 0, used_quota: 60, status: TokenStatus.enabled });
      await second.settle(10);
      t.match(await current(token), { remain_quota: 30, used_quota: 70, status: TokenStatus.enabled });
      await (await ledger.reserve(token, 30)).settle(30);
      t.match(await current(token), { remain_quota: 0, used_quota: 100, status: TokenStatus.exhausted });
    });

    t.test('a token an operator disabled meanwhile keeps its status when its quota runs out', async (t) => {
      const token = await createToken(50);
      const reservation = await ledger.reserve(token, 50);
      await tokens.update(record(token.id, { status: TokenStatus.disabled }));
      await reservation.settle(50);
      t.match(await current(token), { remain_quota: 0, used_quota: 50, status: TokenStatus.disabled });
    });

    t.test('an unlimited token reserves nothing, and its used quota still grows by the actual cost', async (t) => {
      const token = await createToken(0, { unlimited_quota: true });
      const reservation = await ledger.reserve(token, 1_000_000);
      t.equal(reservation.units, 0);
      await reservation.settle(250);
      await reservation.settle(250);
      t.match(await current(token), { remain_quota: 0, used_quota: 250, status: TokenStatus.enabled });
      const refunded = await ledger.reserve(token, 10);
      await refunded.refund();
      t.match(await current(token), { remain_quota: 0, used_quota: 250, status: TokenStatus.enabled });
    });

    t.test('200 parallel reservations against a quota that fits 20 grant exactly 20', async (t) => {
      const token = await createToken(20 * 7 + 6);
      const results = await Promise.allSettled(Array.from({ length: 200 }, () => ledger.reserve(token, 7)));
      t.equal(results.filter((result) => result.status === 'fulfilled').length, 20);
      t.ok(results.every((result) => result.status === 'fulfilled' || (result.reason as GatewayError).code === 'insufficient_quota'));
      t.match(await current(token), { remain_quota: 6, used_quota: 0 });
    });

    t.test('a settlement that is not a whole, non-negative number of units is rejected and the reservation stays open', async (t) => {
      const token = await createToken(100);
      const reservation = await ledger.reserve(token, 40);
      await t.rejects(reservation.settle(1.5), RangeError);
      await t.rejects(reservation.settle(-1), RangeError);
      await reservation.refund();
      t.match(await current(token), { remain_quota: 100, used_quota: 0 });
    });
  });
}
