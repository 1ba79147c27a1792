import KeyvRedis from '@keyv/redis';
import { createClient, type RedisClientType } from '@redis/client';
import Keyv from 'keyv';
import { assertBudgetClaim } from './budget-claim.js';
import { assertQuotaUnits } from './quota-units.js';
import { assertRateCorrection, assertRateDraws, rateFitToleranceMilliseconds } from './rate-bucket.js';
import { missedMessages, type BudgetClaim, type BudgetWindowUsage, type HoldLease, type SettleOptions, type QuotaBalance, type QuotaReservation, type QuotaSettlement, type RateCorrection, type RateDraw, type RateDrawResult, type ReturnedHold, type SlotAcquisition, type SlotClaim, type SlotLease, type StoreBackend, type StoreEntry, type StoreWrites, type WindowHit } from './store-backend.js';
import { recordExpiry, splitRecordKey } from './store-entries.js';
import { RedisUsageLogStore } from './redis-usage-log-store.js';
import { RedisAuditLogStore } from './redis-audit-log-store.js';
import type { UsageRecord } from '../usage/usage-record.js';
import type { AuditRecord } from '../audit/audit-record.js';
import { StartupError } from '../errors/startup-error.js';
import { recordFormat } from './record-serializer.js';

/** How many keys {@link RedisStoreBackend.exportEntries} reads, and {@link RedisStoreBackend.importEntries} writes, per round trip. */
const copyBatchSize = 500;

const hitWindowScript = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// The rate bucket scripts are core/store/rate-bucket.ts in Lua, on Redis's own clock so
// every instance agrees on the time. Fractional numbers are written with %.17g: Lua's own
// conversion keeps 14 digits, which would round milliseconds since the epoch. A bucket
// expires once it is full again, but its expiry is only ever pushed later, so a correction
// never meets a fresh bucket while its draw could still be in the old one.
const rateClock = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + tonumber(clock[2]) / 1000
local function keep(key, fullAt)
  local ttl = math.ceil(fullAt - now) + 1
  if redis.call('PTTL', key) < ttl then redis.call('PEXPIRE', key, string.format('%d', ttl)) end
end`;

const drawRatesScript = `${rateClock}
local states = {}
local longest, refused = 0, -1
for i = 1, #KEYS do
  local amount, capacity, window = tonumber(ARGV[3 * i - 2]), tonumber(ARGV[3 * i - 1]), tonumber(ARGV[3 * i])
  local state = redis.call('HMGET', KEYS[i], 'full_at', 'returned')
  local fullAt = math.max(tonumber(state[1]) or now, now) + amount * window / capacity
  local wait = fullAt - window - now
  if wait > ${rateFitToleranceMilliseconds} and wait > longest then longest, refused = wait, i - 1 end
  states[i] = {string.format('%.17g', fullAt), string.format('%.17g', tonumber(state[2]) or 0), fullAt}
end
if refused >= 0 then return {0, refused, string.format('%.17g', longest)} end
local marks = {1}
for i = 1, #KEYS do
  redis.call('HSET', KEYS[i], 'full_at', states[i][1], 'returned', states[i][2])
  keep(KEYS[i], states[i][3])
  marks[#marks + 1] = states[i][1]
  marks[#marks + 1] = states[i][2]
end
return marks`;

const correctRateScript = `${rateClock}
local delta, capacity, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local markFullAt, markReturned, markAmount = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local interval = window / capacity
local state = redis.call('HMGET', KEYS[1], 'full_at', 'returned')
local fullAt, returned = tonumber(state[1]), tonumber(state[2]) or 0
if delta > 0 then
  fullAt = math.max(fullAt or now, now) + delta * interval
  redis.call('HSET', KEYS[1], 'full_at', string.format('%.17g', fullAt), 'returned', string.format('%.17g', returned))
  keep(KEYS[1], fullAt)
  return 1
end
if delta == 0 or fullAt == nil or returned < markReturned then return 0 end
local credit = math.min(math.min(-delta, markAmount) * interval, markFullAt - (returned - markReturned) - now)
if not (credit > 0) then return 0 end
redis.call('HSET', KEYS[1], 'full_at', string.format('%.17g', fullAt - credit), 'returned', string.format('%.17g', returned + credit))
return 1`;

const writeRemainingScript = `
redis.call('HSET', KEYS[1], 'remain', ARGV[1])
redis.call('HSETNX', KEYS[1], 'used', 0)
return 1`;

// Amounts computed in Lua are formatted with %d before HINCRBY: Lua 5.1's own number-to-
// string conversion prints large numbers in exponent form, which HINCRBY rejects. Redis
// truncates returned Lua numbers to integers, which the amounts already are.
// A hold is the hash `hold:<id>` (account, units, owner) and, while it has a lease, its
// expiry (on Redis's clock) in the sorted set `holds`; a detached hold has no entry there, so
// no sweep finds it. KEYS: the balance, the hold, `holds`; ARGV[2] empty for no hold.
const leaseClock = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)`;

const reserveScript = `${leaseClock}
local remain = redis.call('HGET', KEYS[1], 'remain')
if not remain then return {0, 0} end
if tonumber(remain) < tonumber(ARGV[1]) then return {0, tonumber(remain)} end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[2], 'account', ARGV[2], 'units', ARGV[1], 'owner', ARGV[3])
  redis.call('ZADD', KEYS[3], string.format('%d', now + tonumber(ARGV[4])), ARGV[5])
end
return {1, redis.call('HINCRBY', KEYS[1], 'remain', string.format('%d', -tonumber(ARGV[1])))}`;

// A budget window is the string `budget:<key>` (the units it counts), expiring when its period
// ends. A hold counted in windows has their keys (newline-separated, without the prefix) and
// the units it counted in each in its hash. `correctBudget` moves them (never below 0, and
// never bringing back a window that expired): defined once, used by settle and sweep.
const correctBudget = `
local function correctBudget(prefix, windows, units, charged)
  if not windows or windows == '' then return end
  local delta = charged - tonumber(units)
  if delta == 0 then return end
  for key in string.gmatch(windows, '[^\\n]+') do
    local counted = redis.call('GET', prefix .. 'budget:' .. key)
    if counted then redis.call('SET', prefix .. 'budget:' .. key, string.format('%d', math.max(0, tonumber(counted) + delta)), 'KEEPTTL') end
  end
end`;

// KEYS: the balance, the hold, `holds`, then one `budget:<key>` per window. ARGV: the amount,
// the account, the owner, the lease, the hold id, '1' for an unlimited token, the windows' keys
// (newline-separated), then per window its limit, '1' when hard, and its end. Returns granted,
// remain, the refused window's index (-1 for none) and its count, then each window's count.
const reserveInBudgetScript = `${leaseClock}
local amount = tonumber(ARGV[1])
local unlimited = ARGV[6] == '1'
local remain = redis.call('HGET', KEYS[1], 'remain')
if not unlimited then
  if not remain then return {0, 0, -1, 0} end
  if tonumber(remain) < amount then return {0, tonumber(remain), -1, 0} end
end
for i = 1, #KEYS - 3 do
  local base = 8 + (i - 1) * 3
  local counted = tonumber(redis.call('GET', KEYS[i + 3]) or '0')
  if ARGV[base + 1] == '1' and counted + amount > tonumber(ARGV[base]) then return {0, tonumber(remain or '0'), i - 1, counted} end
end
local units = unlimited and 0 or amount
if units > 0 then remain = redis.call('HINCRBY', KEYS[1], 'remain', string.format('%d', -units)) end
local result = {1, tonumber(remain or '0'), -1, 0}
for i = 1, #KEYS - 3 do
  result[#result + 1] = redis.call('INCRBY', KEYS[i + 3], string.format('%d', amount))
  redis.call('PEXPIREAT', KEYS[i + 3], ARGV[8 + (i - 1) * 3 + 2])
end
redis.call('HSET', KEYS[2], 'account', ARGV[2], 'units', string.format('%d', units), 'owner', ARGV[3], 'windows', ARGV[7], 'budget_units', ARGV[1])
redis.call('ZADD', KEYS[3], string.format('%d', now + tonumber(ARGV[4])), ARGV[5])
return result`;

// KEYS: the balance, the hold, `holds`. ARGV: reserved, actual, the hold id ('' for none),
// '1' for an unlimited token, the key prefix.
const settleScript = `${correctBudget}
local held = 1
local budget = {false, false}
if ARGV[3] ~= '' then
  budget = redis.call('HMGET', KEYS[2], 'windows', 'budget_units')
  held = redis.call('DEL', KEYS[2])
  redis.call('ZREM', KEYS[3], ARGV[3])
end
local balance = redis.call('HMGET', KEYS[1], 'remain', 'used')
if ARGV[4] == '1' then
  correctBudget(ARGV[5], budget[1], budget[2], tonumber(ARGV[2]))
  if not balance[1] then return {0, 0, tonumber(ARGV[2]), held} end
  return {tonumber(balance[1]), redis.call('HINCRBY', KEYS[1], 'used', ARGV[2]), tonumber(ARGV[2]), held}
end
if not balance[1] then
  correctBudget(ARGV[5], budget[1], budget[2], 0)
  return {0, 0, 0, held}
end
local reserved = held == 1 and tonumber(ARGV[1]) or 0
local charged = math.max(0, math.min(tonumber(ARGV[2]), tonumber(balance[1]) + reserved))
local remain = redis.call('HINCRBY', KEYS[1], 'remain', string.format('%d', reserved - charged))
local used = redis.call('HINCRBY', KEYS[1], 'used', string.format('%d', charged))
correctBudget(ARGV[5], budget[1], budget[2], charged)
return {remain, used, charged, held}`;

// KEYS: the hold, `holds`; ARGV: the id.
const detachHoldScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
return 1`;

// KEYS: sorted sets, `holds` (ARGV[2] times), then `slot:<key>`; ARGV[1] the lease, then one
// member per key. XX: only members still there are renewed, so a settled, swept or detached
// one stays gone. A slot's set expires with its newest lease.
const renewLeasesScript = `${leaseClock}
local expiry = string.format('%d', now + tonumber(ARGV[1]))
local holds = tonumber(ARGV[2])
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], 'XX', expiry, ARGV[i + 2])
  if i > holds and redis.call('EXISTS', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
return 1`;

// KEYS[1]: `holds`; ARGV: the key prefix, the batch size. Each expired hold is removed and
// its units given back in this one script, so no other sweeper or settlement comes between.
const sweepHoldsScript = `${leaseClock}${correctBudget}
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[2]))
local returned = {}
for _, id in ipairs(ids) do
  local hold = ARGV[1] .. 'hold:' .. id
  local fields = redis.call('HMGET', hold, 'account', 'units', 'windows', 'budget_units')
  redis.call('DEL', hold)
  correctBudget(ARGV[1], fields[3], fields[4], 0)
  redis.call('ZREM', KEYS[1], id)
  if fields[1] then
    local balance = ARGV[1] .. 'balance:' .. fields[1]
    if redis.call('EXISTS', balance) == 1 then redis.call('HINCRBY', balance, 'remain', fields[2]) end
    returned[#returned + 1] = id
    returned[#returned + 1] = fields[1]
    returned[#returned + 1] = fields[2]
  end
end
return returned`;

// KEYS: `slot:<key>` per claim; ARGV: the lease, the slot id, then the limits. A slot is a
// member scored by its lease expiry; expired members are removed before counting.
const acquireSlotsScript = `${leaseClock}
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[i + 2]) then return i - 1 end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], string.format('%d', now + tonumber(ARGV[1])), ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ARGV[1])
end
return -1`;

const addUsedScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'used', ARGV[1])
return 1`;

/**
 * Several gateway processes, on one machine or many, share one Redis. Every key carries
 * the configured prefix, so one Redis can hold several deployments (and each test run its
 * own). Commands fail at once while Redis is unreachable instead of queueing, so quota
 * fails closed and `/readyz` can tell.
 */
export class RedisStoreBackend implements StoreBackend {
  readonly driver = 'redis';
  readonly #client: RedisClientType;
  readonly #subscriber: RedisClientType;
  readonly #prefix: string;
  readonly #keyvs = new Map<string, { keyv: Keyv; adapter: KeyvRedis<unknown> }>();
  #subscriberConnected: Promise<unknown> | undefined;
  readonly #handlers: Array<(message: string) => void> = [];
  readonly #usageLog: RedisUsageLogStore;
  readonly #auditLog: RedisAuditLogStore;

  private constructor(client: RedisClientType, prefix: string) {
    this.#client = client;
    this.#usageLog = new RedisUsageLogStore(client, (key) => `${prefix}${key}`);
    this.#auditLog = new RedisAuditLogStore(client, (key) => `${prefix}${key}`);
    this.#subscriber = client.duplicate();
    this.#subscriber.on('error', () => {});
    // Every ready after the first is a reconnect: messages published meanwhile were missed.
    // Both connections count: requests may be served again (the client) before the
    // subscriber is back, and whatever is published until it is back is missed too.
    for (const connection of [client, this.#subscriber]) {
      let readies = 0;
      connection.on('ready', () => {
        readies += 1;
        if (readies > 1) for (const handler of this.#handlers) handler(missedMessages);
      });
    }
    this.#prefix = prefix;
  }

  /** Connects to Redis at `url`; rejects when it does not answer within `connectTimeoutMilliseconds`. */
  static async open(url: string, prefix: string, connectTimeoutMilliseconds = 5000): Promise<RedisStoreBackend> {
    const client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: connectTimeoutMilliseconds, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
    }) as RedisClientType;
    // node-redis emits an error event for every failed reconnect; the failures surface on
    // the commands themselves and through ping(), so the event itself needs no handling.
    client.on('error', () => {});
    // The reconnect strategy would retry the first connection forever; a start must fail instead.
    const connecting = client.connect();
    connecting.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        connecting,
        new Promise((_resolve, reject) => {
          timer = setTimeout(() => reject(new StartupError(`Redis did not answer within ${connectTimeoutMilliseconds} ms; check storage.url and that Redis is running`)), connectTimeoutMilliseconds);
        }),
      ]);
    } catch (error) {
      client.destroy();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return new RedisStoreBackend(client, prefix);
  }

  #key(key: string): string {
    return `${this.#prefix}${key}`;
  }

  keyv<Value>(namespace: string): Keyv<Value> {
    return this.#namespace(namespace).keyv as Keyv<Value>;
  }

  usageLog(): RedisUsageLogStore {
    return this.#usageLog;
  }

  auditLog(): RedisAuditLogStore {
    return this.#auditLog;
  }

  #namespace(namespace: string): { keyv: Keyv; adapter: KeyvRedis<unknown> } {
    let entry = this.#keyvs.get(namespace);
    if (entry === undefined) {
      // Each namespace's adapter adds one `error` listener to the shared client, by design; past
      // ten namespaces Node would warn of a leak on every start. The limit grows by exactly that
      // one, so a real leak of listeners on the client is still reported.
      this.#client.setMaxListeners(this.#client.getMaxListeners() + 1);
      const adapter = new KeyvRedis(this.#client, { namespace: this.#key(namespace), throwOnErrors: true, throwOnConnectError: true });
      // Failures reach callers as rejections (throwOnErrors); the error events would only
      // duplicate them, and an unheard error event would crash the process.
      adapter.on('error', () => {});
      const keyv = new Keyv({ store: adapter, namespace: this.#key(namespace), useKeyPrefix: false, throwOnErrors: true, emitErrors: false, ...recordFormat });
      entry = { keyv, adapter };
      this.#keyvs.set(namespace, entry);
    }
    return entry;
  }

  async writeTogether(writes: StoreWrites): Promise<void> {
    // One MULTI: Redis runs its commands with no other client's in between, and a MULTI cut
    // short in the append-only file by a crash is found at restart and removed whole by
    // redis-check-aof. Redis does not roll back a command that fails at run time (a key of
    // the wrong type); the keys written here each have one type, so none does.
    const multi = this.#client.multi();
    for (const { namespace, key, value } of writes.records ?? []) {
      const { keyv, adapter } = this.#namespace(namespace);
      multi.set(adapter.createKeyPrefix(key, adapter.namespace), (await keyv.serializeData({ value })) as string);
    }
    for (const { key, members } of writes.setAdditions ?? []) {
      if (members.length > 0) multi.sAdd(this.#key(`set:${key}`), [...members]);
    }
    for (const { account, remain } of writes.remaining ?? []) {
      multi.eval(writeRemainingScript, { keys: [this.#key(`balance:${account}`)], arguments: [String(remain)] });
    }
    await multi.exec();
  }

  async increment(key: string, by = 1): Promise<number> {
    return Number(await this.#client.incrBy(this.#key(`counter:${key}`), by));
  }

  async hitWindow(key: string, windowMilliseconds: number): Promise<WindowHit> {
    const [count, ttl] = (await this.#client.eval(hitWindowScript, {
      keys: [this.#key(`window:${key}`)],
      arguments: [String(windowMilliseconds)],
    })) as [number, number];
    return { count: Number(count), resetInMilliseconds: Number(ttl) };
  }

  async sweepWindows(): Promise<number> {
    // A window's key expires when the window resets (PEXPIRE in hitWindowScript): Redis
    // removes it itself, and no reset window is left here to sweep.
    return 0;
  }

  async drawRates(draws: readonly RateDraw[]): Promise<RateDrawResult> {
    assertRateDraws(draws);
    if (draws.length === 0) return { granted: true, marks: [] };
    const reply = (await this.#client.eval(drawRatesScript, {
      keys: draws.map((draw) => this.#key(`rate:${draw.key}`)),
      arguments: draws.flatMap((draw) => [String(draw.amount), String(draw.capacity), String(draw.windowMilliseconds)]),
    })) as Array<number | string>;
    if (Number(reply[0]) !== 1) return { granted: false, refused: Number(reply[1]), retryInMilliseconds: Number(reply[2]) };
    return { granted: true, marks: draws.map((draw, index) => ({ amount: draw.amount, fullAt: Number(reply[1 + 2 * index]), returned: Number(reply[2 + 2 * index]) })) };
  }

  async correctRate(correction: RateCorrection): Promise<void> {
    assertRateCorrection(correction);
    await this.#client.eval(correctRateScript, {
      keys: [this.#key(`rate:${correction.key}`)],
      arguments: [correction.delta, correction.capacity, correction.windowMilliseconds, correction.mark.fullAt, correction.mark.returned, correction.mark.amount].map(String),
    });
  }

  async addToSet(key: string, members: readonly string[]): Promise<void> {
    if (members.length > 0) await this.#client.sAdd(this.#key(`set:${key}`), [...members]);
  }

  async removeFromSet(key: string, members: readonly string[]): Promise<number> {
    if (members.length === 0) return 0;
    return Number(await this.#client.sRem(this.#key(`set:${key}`), [...members]));
  }

  async setMembers(key: string): Promise<string[]> {
    return this.#client.sMembers(this.#key(`set:${key}`));
  }

  async readBalances(accounts: readonly string[]): Promise<Map<string, QuotaBalance>> {
    const multi = this.#client.multi();
    for (const account of accounts) multi.hmGet(this.#key(`balance:${account}`), ['remain', 'used']);
    const replies = (await multi.exec()) as unknown as Array<Array<string | null>>;
    const result = new Map<string, QuotaBalance>();
    accounts.forEach((account, index) => {
      const [remain, used] = replies[index] ?? [];
      if (remain !== null && remain !== undefined) result.set(account, { remain: Number(remain), used: Number(used ?? 0) });
    });
    return result;
  }

  async writeRemaining(account: string, remain: number): Promise<void> {
    await this.#client.eval(writeRemainingScript, { keys: [this.#key(`balance:${account}`)], arguments: [String(remain)] });
  }

  async reserve(account: string, amount: number, lease?: HoldLease, budget?: BudgetClaim): Promise<QuotaReservation> {
    assertQuotaUnits('amount', amount);
    assertBudgetClaim(budget, lease);
    if (budget !== undefined && budget.windows.length > 0) return this.#reserveInBudget(account, amount, lease as HoldLease, budget);
    const [granted, remain] = (await this.#client.eval(reserveScript, {
      keys: [this.#key(`balance:${account}`), this.#key(`hold:${lease?.id ?? ''}`), this.#key('holds')],
      arguments: lease === undefined ? [String(amount), ''] : [String(amount), account, lease.owner, String(lease.leaseMilliseconds), lease.id],
    })) as [number, number];
    return { granted: Number(granted) === 1, remain: Number(remain) };
  }

  async #reserveInBudget(account: string, amount: number, lease: HoldLease, budget: BudgetClaim): Promise<QuotaReservation> {
    const reply = (await this.#client.eval(reserveInBudgetScript, {
      keys: [this.#key(`balance:${account}`), this.#key(`hold:${lease.id}`), this.#key('holds'), ...budget.windows.map((window) => this.#key(`budget:${window.key}`))],
      arguments: [
        String(amount),
        account,
        lease.owner,
        String(lease.leaseMilliseconds),
        lease.id,
        budget.unlimited ? '1' : '0',
        budget.windows.map((window) => window.key).join('\n'),
        ...budget.windows.flatMap((window) => [String(window.limit), window.hard ? '1' : '0', String(window.endsAt)]),
      ],
    })) as number[];
    const [granted, remain, refused, counted] = reply.map(Number) as [number, number, number, number];
    if (granted === 1) return { granted: true, remain, budget: { used: reply.slice(4).map(Number) } };
    return refused < 0 ? { granted: false, remain } : { granted: false, remain, budget: { refused, used: counted } };
  }

  async settle(account: string, reserved: number, actual: number, holdId?: string, options: SettleOptions = {}): Promise<QuotaSettlement> {
    const unlimited = options.unlimited === true;
    assertQuotaUnits('reserved', reserved);
    assertQuotaUnits('actual', actual);
    const [remain, used, charged, held] = (await this.#client.eval(settleScript, {
      keys: [this.#key(`balance:${account}`), this.#key(`hold:${holdId ?? ''}`), this.#key('holds')],
      arguments: [String(reserved), String(actual), holdId ?? '', unlimited ? '1' : '0', this.#prefix],
    })) as [number, number, number, number];
    return { remain: Number(remain), used: Number(used), charged: Number(charged), held: Number(held) === 1 };
  }

  async readBudgetWindows(keys: readonly string[]): Promise<BudgetWindowUsage> {
    if (keys.length === 0) return new Map();
    const values = await this.#client.mGet(keys.map((key) => this.#key(`budget:${key}`)));
    const result: BudgetWindowUsage = new Map();
    values.forEach((value, index) => {
      if (value !== null) result.set(keys[index] as string, Number(value));
    });
    return result;
  }

  async detachHold(holdId: string): Promise<boolean> {
    return Number(await this.#client.eval(detachHoldScript, { keys: [this.#key(`hold:${holdId}`), this.#key('holds')], arguments: [holdId] })) === 1;
  }

  async renewLeases(leases: { holds: readonly string[]; slots: readonly SlotLease[] }, leaseMilliseconds: number): Promise<void> {
    const keys: string[] = [];
    const members: string[] = [];
    for (const id of leases.holds) {
      keys.push(this.#key('holds'));
      members.push(id);
    }
    for (const slot of leases.slots) {
      for (const key of slot.keys) {
        keys.push(this.#key(`slot:${key}`));
        members.push(slot.id);
      }
    }
    if (keys.length === 0) return;
    await this.#client.eval(renewLeasesScript, { keys, arguments: [String(leaseMilliseconds), String(leases.holds.length), ...members] });
  }

  async sweepHolds(limit: number): Promise<ReturnedHold[]> {
    const reply = (await this.#client.eval(sweepHoldsScript, { keys: [this.#key('holds')], arguments: [this.#prefix, String(limit)] })) as string[];
    const returned: ReturnedHold[] = [];
    for (let index = 0; index + 2 < reply.length; index += 3) returned.push({ id: String(reply[index]), account: String(reply[index + 1]), units: Number(reply[index + 2]) });
    return returned;
  }

  async acquireSlots(claims: readonly SlotClaim[], lease: HoldLease): Promise<SlotAcquisition> {
    if (claims.length === 0) return { granted: true };
    const refused = Number(
      await this.#client.eval(acquireSlotsScript, {
        keys: claims.map((claim) => this.#key(`slot:${claim.key}`)),
        arguments: [String(lease.leaseMilliseconds), lease.id, ...claims.map((claim) => String(claim.limit))],
      }),
    );
    return refused < 0 ? { granted: true } : { granted: false, refused };
  }

  async releaseSlot(slot: SlotLease): Promise<void> {
    if (slot.keys.length === 0) return;
    const multi = this.#client.multi();
    for (const key of slot.keys) multi.zRem(this.#key(`slot:${key}`), slot.id);
    await multi.exec();
  }

  async addUsed(account: string, amount: number): Promise<void> {
    assertQuotaUnits('amount', amount);
    await this.#client.eval(addUsedScript, { keys: [this.#key(`balance:${account}`)], arguments: [String(amount)] });
  }

  async deleteBalance(account: string): Promise<void> {
    await this.#client.del(this.#key(`balance:${account}`));
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.#client.publish(this.#key(`channel:${channel}`), message);
  }

  async subscribe(channel: string, handler: (message: string) => void): Promise<void> {
    this.#subscriberConnected ??= this.#subscriber.connect();
    await this.#subscriberConnected;
    this.#handlers.push(handler);
    await this.#subscriber.subscribe(this.#key(`channel:${channel}`), (message) => handler(message));
  }

  /**
   * Scans the keys under the prefix and reads each by its kind: `set:`, `counter:`, `window:`
   * and `balance:` keys are the primitives, `rate:` buckets are skipped, and any other key is a
   * keyv record, `<namespace>::<key>` (the separator of @keyv/redis), given out as keyv's
   * `<namespace>:<key>`. A key that is none of these stops the export rather than be left
   * behind.
   */
  async *exportEntries(): AsyncGenerator<StoreEntry> {
    const prefix = this.#prefix;
    const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    // SCAN may return a key more than once; an importer takes each key once.
    const seen = new Set<string>();
    for await (const scanned of this.#client.scanIterator({ MATCH: pattern, COUNT: copyBatchSize })) {
      const keys = scanned.filter((key) => !seen.has(key));
      for (const key of keys) seen.add(key);
      if (keys.length === 0) continue;
      const typing = this.#client.multi();
      for (const key of keys) typing.type(key);
      const types = (await typing.exec()) as unknown as string[];
      const reading = this.#client.multi();
      // Each key's reader takes the replies of the commands it queued, in order.
      const readers: Array<{ replies: number; read: (replies: unknown[], now: number) => StoreEntry | undefined }> = [];
      keys.forEach((fullKey, index) => {
        const key = fullKey.slice(prefix.length);
        const type = types[index];
        // Rate buckets and slots are transient; `holds` is read with each hold. The usage log's
        // keys (`usage:…`) and the audit trail's (`audit:…`) are read after the scan, record by record.
        if (type === 'none' || key.startsWith('rate:') || key.startsWith('usage:') || key.startsWith('audit:') || (type === 'zset' && (key === 'holds' || key.startsWith('slot:')))) return;
        if (type === 'set' && key.startsWith('set:')) {
          reading.sMembers(fullKey);
          readers.push({ replies: 1, read: ([members]) => ({ kind: 'set', key: key.slice('set:'.length), members: members as string[] }) });
        } else if (type === 'hash' && key.startsWith('balance:')) {
          reading.hmGet(fullKey, ['remain', 'used']);
          readers.push({
            replies: 1,
            read: ([reply]) => {
              const [remain, used] = reply as Array<string | null>;
              return remain === null || remain === undefined ? undefined : { kind: 'balance', account: key.slice('balance:'.length), remain: Number(remain), used: Number(used ?? 0) };
            },
          });
        } else if (type === 'hash' && key.startsWith('hold:')) {
          const id = key.slice('hold:'.length);
          reading.hmGet(fullKey, ['account', 'units', 'owner', 'windows', 'budget_units']);
          reading.zScore(this.#key('holds'), id);
          readers.push({
            replies: 2,
            read: ([fields, expiry]) => {
              const [account, units, owner, windows, budgetUnits] = fields as Array<string | null>;
              if (account === null || account === undefined) return undefined;
              const budget = windows === null || windows === undefined || windows === '' ? {} : { budget: { windows: windows.split('\n'), units: Number(budgetUnits ?? 0) } };
              return { kind: 'hold', id, account, units: Number(units ?? 0), owner: owner ?? '', expiresAt: expiry === null || expiry === undefined ? null : Number(expiry), ...budget };
            },
          });
        } else if (type === 'string' && key.startsWith('counter:')) {
          reading.get(fullKey);
          readers.push({ replies: 1, read: ([value]) => (value === null ? undefined : { kind: 'counter', key: key.slice('counter:'.length), value: Number(value) }) });
        } else if (type === 'string' && key.startsWith('budget:')) {
          // The window's period ends when its key expires.
          reading.get(fullKey);
          reading.pTTL(fullKey);
          readers.push({
            replies: 2,
            read: ([value, ttl], now) => (value === null || !(Number(ttl) > 0) ? undefined : { kind: 'budget', key: key.slice('budget:'.length), used: Number(value), endsAt: now + Number(ttl) }),
          });
        } else if (type === 'string' && key.startsWith('window:')) {
          // The window resets when its key expires.
          reading.get(fullKey);
          reading.pTTL(fullKey);
          readers.push({
            replies: 2,
            read: ([value, ttl], now) => (value === null || !(Number(ttl) > 0) ? undefined : { kind: 'window', key: key.slice('window:'.length), count: Number(value), resetAt: now + Number(ttl) }),
          });
        } else if (type === 'string' && key.includes('::')) {
          reading.get(fullKey);
          readers.push({ replies: 1, read: ([value]) => (value === null ? undefined : { kind: 'record', key: key.replace('::', ':'), value: value as string }) });
        } else {
          throw new Error(`the Redis key ${JSON.stringify(fullKey)} (a ${type}) is not one this gateway writes, so the export stops rather than leave it behind`);
        }
      });
      if (readers.length === 0) continue;
      const replies = (await reading.exec()) as unknown[];
      const now = Date.now();
      let offset = 0;
      for (const reader of readers) {
        const entry = reader.read(replies.slice(offset, offset + reader.replies), now);
        offset += reader.replies;
        if (entry !== undefined) yield entry;
      }
    }
    for await (const record of this.#usageLog.exportRecords()) yield { kind: 'usage', record };
    for await (const record of this.#auditLog.exportRecords()) yield { kind: 'audit', record };
  }

  /**
   * Writes the entries in MULTI batches of {@link copyBatchSize}. A record keeps its expiry as
   * the key's (an expired one is not written), a window its reset. Each batch is all or
   * nothing; a failure in a later batch leaves the earlier ones written.
   */
  async importEntries(entries: AsyncIterable<StoreEntry>): Promise<void> {
    let batch = this.#client.multi();
    // The usage log's records go in scripts of their own (ids, both streams), a batch at a time.
    const usage: UsageRecord[] = [];
    const audit: AuditRecord[] = [];
    let size = 0;
    for await (const entry of entries) {
      const now = Date.now();
      if (entry.kind === 'record') {
        const { namespace, key } = splitRecordKey(entry.key);
        const { adapter } = this.#namespace(namespace);
        const expires = recordExpiry(entry);
        if (expires === undefined) batch.set(adapter.createKeyPrefix(key, adapter.namespace), entry.value);
        else if (expires > now) batch.set(adapter.createKeyPrefix(key, adapter.namespace), entry.value, { PX: Math.ceil(expires - now) });
      } else if (entry.kind === 'set') {
        if (entry.members.length > 0) batch.sAdd(this.#key(`set:${entry.key}`), entry.members);
      } else if (entry.kind === 'counter') {
        batch.set(this.#key(`counter:${entry.key}`), String(entry.value));
      } else if (entry.kind === 'window') {
        if (entry.resetAt > now) batch.set(this.#key(`window:${entry.key}`), String(entry.count), { PX: Math.ceil(entry.resetAt - now) });
      } else if (entry.kind === 'balance') {
        batch.hSet(this.#key(`balance:${entry.account}`), { remain: String(entry.remain), used: String(entry.used) });
      } else if (entry.kind === 'hold') {
        const fields: Record<string, string> = { account: entry.account, units: String(entry.units), owner: entry.owner };
        if (entry.budget !== undefined) Object.assign(fields, { windows: entry.budget.windows.join('\n'), budget_units: String(entry.budget.units) });
        batch.hSet(this.#key(`hold:${entry.id}`), fields);
        if (entry.expiresAt !== null) batch.zAdd(this.#key('holds'), { score: entry.expiresAt, value: entry.id });
      } else if (entry.kind === 'budget') {
        if (entry.endsAt > now) batch.set(this.#key(`budget:${entry.key}`), String(entry.used), { PX: Math.ceil(entry.endsAt - now) });
      } else if (entry.kind === 'usage') {
        usage.push(entry.record);
      } else {
        audit.push(entry.record);
      }
      size += 1;
      if (size === copyBatchSize) {
        await batch.exec();
        await this.#usageLog.importRecords(usage.splice(0));
        await this.#auditLog.importRecords(audit.splice(0));
        batch = this.#client.multi();
        size = 0;
      }
    }
    if (size > 0) await batch.exec();
    await this.#usageLog.importRecords(usage);
    await this.#auditLog.importRecords(audit);
  }

  async ping(): Promise<void> {
    if (!this.#client.isReady) throw new Error('redis is not connected');
    await this.#client.ping();
  }

  async close(): Promise<void> {
    await Promise.all([this.#subscriber, this.#client].map(closeClient));
  }
}

/** Closes gracefully when connected; a client still trying to reconnect is destroyed instead. */
async function closeClient(client: RedisClientType): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) {
    client.destroy();
    return;
  }
  try {
    await client.close();
  } catch {
    client.destroy();
  }
}
