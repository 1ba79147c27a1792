import { allPages, api } from '../api/client';
import type { DailyRow, LogRecord, LogStat, Page, SignedInUser, Token } from '../api/types';
import type { PageProps } from '../app';
import { BudgetList } from '../components/budget-list';
import { Notice, messageOf } from '../components/field';
import { QuotaChart } from '../components/quota-chart';
import { useLoad } from '../components/use-load';
import { duration, median, units, unitsAsUsd } from '../format';
import { loadPricing } from '../pricing';

const chartDays = 14;

/** The last 24 hours of the usage log: totals, errors, the latest records, and spend by model. */
async function lastDay() {
  const since = Math.floor(Date.now() / 1000) - 86_400;
  const [all, consumed, failed, latest, daily] = await Promise.all([
    api<LogStat>('GET', '/api/log/self/stat', { query: { start_timestamp: since } }),
    api<LogStat>('GET', '/api/log/self/stat', { query: { start_timestamp: since, type: 2 } }),
    api<LogStat>('GET', '/api/log/self/stat', { query: { start_timestamp: since, type: 5 } }),
    api<Page<LogRecord>>('GET', '/api/log/self', { query: { start_timestamp: since, size: 100 } }),
    api<DailyRow[]>('GET', '/api/log/self/daily', { query: { start_timestamp: since } }),
  ]);
  const answered = latest.items.filter((record) => record.type === 2);
  const byModel = new Map<string, { quota: number; requests: number }>();
  for (const row of daily) {
    const entry = byModel.get(row.model_name) ?? { quota: 0, requests: 0 };
    byModel.set(row.model_name, { quota: entry.quota + row.quota, requests: entry.requests + row.requests });
  }
  return {
    all,
    successRate: consumed.requests + failed.requests === 0 ? null : consumed.requests / (consumed.requests + failed.requests),
    latency: median(answered.map((record) => record.use_time_ms)),
    firstByte: median(answered.filter((record) => record.first_byte_ms > 0).map((record) => record.first_byte_ms)),
    sampled: answered.length,
    topModels: [...byModel].sort((a, b) => b[1].quota - a[1].quota || b[1].requests - a[1].requests).slice(0, 5),
  };
}

/** The days of the chart: the last {@link chartDays} UTC days, today included. */
function chartRange() {
  const today = new Date();
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (chartDays - 1)));
  return { firstDay: first.toISOString().slice(0, 10), lastDay: today.toISOString().slice(0, 10), since: first.getTime() / 1000 };
}

/** Overview: quota left, the last 24 hours (spend, requests, success rate, latency, top models), and quota per day by model. */
export function Overview(_props: PageProps) {
  const pricing = useLoad(loadPricing, []);
  const tokens = useLoad(() => allPages<Token>('/api/token/'), []);
  const day = useLoad(lastDay, []);
  const range = chartRange();
  const daily = useLoad(() => api<DailyRow[]>('GET', '/api/log/self/daily', { query: { start_timestamp: range.since } }), []);
  const self = useLoad(() => api<SignedInUser>('GET', '/api/user/self'), []);
  const quotaPerUsd = pricing.data?.quota_per_usd ?? 1;
  const enabled = (tokens.data ?? []).filter((token) => token.status === 1);
  const left = enabled.filter((token) => !token.unlimited_quota).reduce((sum, token) => sum + token.remain_quota, 0);
  const unlimited = enabled.filter((token) => token.unlimited_quota).length;

  return (
    <>
      <h1>Overview</h1>
      {[pricing.error, tokens.error, day.error, daily.error, self.error]
        .filter((error) => error !== undefined)
        .map((error, index) => (
          <Notice key={index} kind="error">
            {messageOf(error)}
          </Notice>
        ))}
      <section class="stats" aria-label="Figures">
        <div class="stat">
          <h2>Quota left</h2>
          <p class="figure">{tokens.data === undefined ? '…' : unitsAsUsd(left, quotaPerUsd)}</p>
          <p class="hint">
            {units(left)} units on {enabled.length} enabled tokens{unlimited > 0 ? `, ${unlimited} of them unlimited` : ''}
          </p>
        </div>
        <div class="stat">
          <h2>Last 24 hours</h2>
          <p class="figure">{day.data === undefined ? '…' : unitsAsUsd(day.data.all.quota, quotaPerUsd)}</p>
          <p class="hint">{day.data === undefined ? '' : `${day.data.all.requests} requests, ${day.data.all.prompt_tokens + day.data.all.completion_tokens} tokens`}</p>
        </div>
        <div class="stat">
          <h2>Success rate</h2>
          <p class="figure">{day.data === undefined ? '…' : day.data.successRate === null ? '—' : `${(day.data.successRate * 100).toFixed(1)}%`}</p>
          <p class="hint">answered requests of all that reached a channel, last 24 hours</p>
        </div>
        <div class="stat">
          <h2>Latency (p50)</h2>
          <p class="figure">{day.data === undefined ? '…' : duration(day.data.latency)}</p>
          <p class="hint">{day.data === undefined ? '' : `first byte after ${duration(day.data.firstByte)}; the median of the last ${day.data.sampled} answered requests`}</p>
        </div>
      </section>
      {self.data !== undefined && self.data.budgets.length > 0 && (
        <section class="card" aria-labelledby="your-budgets">
          <h2 id="your-budgets">Your budgets, over all your tokens</h2>
          <BudgetList budgets={self.data.budgets} quotaPerUsd={pricing.data?.quota_per_usd} />
        </section>
      )}
      <section class="card" aria-labelledby="top-models">
        <h2 id="top-models">Top models, last 24 hours</h2>
        {day.data !== undefined && day.data.topModels.length === 0 && <p>No requests in the last 24 hours.</p>}
        <ol class="top-models">
          {day.data?.topModels.map(([model, figures]) => (
            <li key={model}>
              <span>{model}</span> <span>{unitsAsUsd(figures.quota, quotaPerUsd)}</span> <span class="hint">{figures.requests} requests</span>
            </li>
          ))}
        </ol>
      </section>
      <section class="card" aria-labelledby="per-day">
        <h2 id="per-day">Quota per day by model (USD), last {chartDays} days (UTC)</h2>
        {daily.data !== undefined && pricing.data !== undefined && <QuotaChart rows={daily.data} firstDay={range.firstDay} lastDay={range.lastDay} quotaPerUsd={pricing.data.quota_per_usd} />}
      </section>
    </>
  );
}
