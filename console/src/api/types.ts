// The shapes the console reads from the management API, with the names the gateway sends.

/** `data` of every paged list. */
export interface Page<Item> {
  items: Item[];
  total: number;
  page: number;
  page_size: number;
}

/** A period's budget as the token object and `GET /api/user/self` show it. */
export interface BudgetStatus {
  period: 'daily' | 'weekly' | 'monthly';
  limit: number;
  mode: 'hard' | 'soft';
  /** Units counted in the current period (charged and held). */
  used: number;
  remain: number;
  /** Unix seconds. */
  resets_at: number;
}

/** The budget fields of a token or a user object; a limit is null when the period has none. */
export interface BudgetFields {
  budget_daily: number | null;
  budget_weekly: number | null;
  budget_monthly: number | null;
  budget_mode: 'hard' | 'soft';
}

/** `GET /api/user/self`. */
/** `GET /api/sign-in`: the identity provider to offer beside the login token, when one is configured. */
export interface SignInMethods {
  oidc: { display_name: string; url: string } | null;
}

export interface SignedInUser extends BudgetFields {
  id: number;
  username: string;
  role: 'admin' | 'user';
  budgets: BudgetStatus[];
}

/** A token object of the token API (the key masked). */
export interface Token extends BudgetFields {
  id: number;
  user_id: number;
  name: string;
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 quota spent. */
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma-separated. */
  model_limits: string;
  /** Comma-separated. */
  allow_ips: string;
  group: string;
  cross_group_retry: boolean;
  /** Unix seconds, or -1 for never. */
  expired_time: number;
  created_time: number;
  accessed_time: number;
  budgets: BudgetStatus[];
}

/** What `POST /api/token/` and `PUT /api/token/` take. */
export interface TokenFields extends BudgetFields {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  model_limits_enabled: boolean;
  model_limits: string[];
  allow_ips: string;
  group: string;
  cross_group_retry: boolean;
}

/** A price entry in USD, before the group's ratio. */
export interface Price {
  input_per_mtok?: number;
  output_per_mtok?: number;
  cached_input_per_mtok?: number;
  per_call?: number;
  per_image?: number;
  per_second?: number;
  resolution_multipliers?: Record<string, number>;
  per_1k_chars?: number;
  per_minute?: number;
}

/** One model of `GET /api/pricing`. */
export interface PricedModel {
  model_name: string;
  enable_groups: string[];
  routes: Record<string, string[]>;
  price: Price | null;
  billing: 'priced' | 'free' | 'unpriced';
}

/** `GET /api/pricing`. */
export interface Pricing {
  quota_per_usd: number;
  groups: { name: string; ratio: number }[];
  auto_groups: string[];
  models: PricedModel[];
}

/** One channel tried for a request (admins only). */
export interface Attempt {
  channel: string;
  /** The billing group it was tried in. */
  group: string;
  outcome: 'success' | 'failed' | 'refused' | 'aborted';
  /** The HTTP status of its failure; absent for a success. */
  status?: number;
  /** The error code of its failure; absent for a success. */
  code?: string;
  milliseconds: number;
  /** The translator that served the client's format on it, when one did. */
  translator?: string;
}

/** A usage log record. */
export interface LogRecord {
  id: number;
  created_at: number;
  /** 2 consume, 5 error, 6 refund. */
  type: number;
  user_id: number;
  token_id: number;
  token_name: string;
  model_name: string;
  upstream_model: string;
  operation: string;
  client_format: string;
  group: string;
  is_stream: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  quota: number;
  usage_source: string;
  status: number;
  error_code: string;
  end_reason: string;
  /** The soft budgets the request was served past (`token:daily`), or empty. */
  budget_overrun: string;
  use_time_ms: number;
  first_byte_ms: number;
  request_id: string;
  task_id: string;
  /** Admins only. */
  channel?: string;
  /** Admins only. */
  attempts?: Attempt[];
}

/** `GET /api/log/self/stat`. */
export interface LogStat {
  quota: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** One row of `GET /api/log/self/daily`. */
export interface DailyRow {
  day: string;
  model_name: string;
  requests: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** A channel's requests in the recent window, as the process that answered counted them. */
export interface ChannelActivity {
  requests: number;
  errors: number;
  /** Requests the channel refused for the request's own fault (they do not count against the channel). */
  refused: number;
  p50_latency_ms: number | null;
  last_error: { code: string; at: number } | null;
}

/** A channel's entry, as a `providers` entry of the config file is written; the API answers its keys masked. */
export interface ChannelEntry {
  name: string;
  plugin: string;
  base_url: string;
  api_key?: string;
  api_keys?: string[];
  models: string[];
  model_map: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  timeouts?: Record<string, number>;
  max_response_mb?: number;
  options: Record<string, unknown>;
}

/** One channel of `GET /api/channel/` (admins only). */
export interface ChannelView {
  name: string;
  /** `file`: the config file is its source of truth (only enabling it is changed here); `store`: created through the channel API. */
  source: 'file' | 'store';
  enabled: boolean;
  plugin: string;
  /** Its models and `model_map` keys, as a test can pick them. */
  models: string[];
  groups: string[];
  priority: number;
  weight: number;
  circuit: 'closed' | 'open' | 'half-open';
  recent: ChannelActivity;
  config: ChannelEntry;
  created_time?: number;
  updated_time?: number;
}

/** `data` of `GET /api/channel/`. */
export interface ChannelList {
  items: ChannelView[];
  total: number;
  recent_window_seconds: number;
  /** Whose figures these are: the answering process's, with a note when others serve the gateway too. */
  scope: { kind: string; process_id: number; note: string };
}

/** `POST /api/channel/test`. */
export interface ChannelTestResult {
  name: string;
  model: string;
  operation: string;
  ok: boolean;
  status: number;
  latency_ms: number;
  error: { code: string; message: string } | null;
}

/** A user of `GET /api/user/` (admins only). */
export interface UserView extends BudgetFields {
  id: number;
  username: string;
  role: 'admin' | 'user';
  /** 1 enabled, 2 disabled. */
  status: number;
  created_time?: number;
  budgets: BudgetStatus[];
}
