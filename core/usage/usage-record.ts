/** What a record is, in the reference gateway's numbers: 2 a consumption, 5 an error, 6 a refund (a video task that failed). */
export const UsageType = { consume: 2, error: 5, refund: 6 } as const;
export type UsageType = (typeof UsageType)[keyof typeof UsageType];

/** The types a record can have, for the `type` filter. */
export const usageTypes: readonly UsageType[] = [UsageType.consume, UsageType.error, UsageType.refund];

/** One try of a channel, as the request's log line, the observer and the usage record report it. */
export interface UsageAttempt {
  channel: string;
  /** The billing group it was tried in. */
  group: string;
  outcome: 'success' | 'failed' | 'refused' | 'aborted';
  /** The HTTP status of its failure; absent for a success. */
  status?: number;
  /** The error code of its failure; absent for a success. */
  code?: string;
  milliseconds: number;
  /** The translator between the client's operation and the one the channel's provider implements, when one served the try. */
  translator?: string;
}

/**
 * One model request on record (or a video task, once settled), with the field names the log
 * API answers with. Written when the request is over; a video task's when it settles or is
 * refunded, maybe by another process.
 */
export interface UsageRecord {
  /** Unique in the store, growing with each record written. */
  id: number;
  /** Unix seconds: when the request ended (a video task: when it settled). */
  created_at: number;
  type: UsageType;
  user_id: number;
  token_id: number;
  token_name: string;
  /** The model the client asked for. */
  model_name: string;
  /** The model the answering channel was asked for (its `model_map`); empty when no channel answered. */
  upstream_model: string;
  /** The pipeline operation: `chat`, `responses`, `messages`, `native.generate`, `video.submit`… */
  operation: string;
  /** The wire format the client spoke: `openai`, `anthropic` or `native` (see {@link clientFormatOf}). */
  client_format: string;
  /** The billing group the request was priced in: the answering channel's, else the token's. */
  group: string;
  is_stream: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  /** Quota units charged (0 for a refund or a request that failed before anything was delivered). */
  quota: number;
  /** Whether the token counts came from the upstream or are the gateway's estimate. */
  usage_source: 'upstream' | 'estimated';
  /** The HTTP status the client got (a stream's is its headers' 200). */
  status: number;
  /** The error's code, or empty. */
  error_code: string;
  /** `completed`, `client_gone`, or an error code: how the request (or the stream, or the task) ended. */
  end_reason: string;
  /**
   * The soft budgets the request was served past, as `scope:period` joined by commas
   * (`token:daily,user:monthly`); empty for none.
   */
  budget_overrun: string;
  use_time_ms: number;
  /** Milliseconds until the answer's first byte was sent: a stream's headers, a JSON answer's whole body. */
  first_byte_ms: number;
  request_id: string;
  /** The gateway's id of the video task, else empty. */
  task_id: string;
  /** Admins only: the channel that answered (or the last one tried), empty when none was. */
  channel: string;
  /** Admins only: each channel tried, in order, with how it went and how long it took. */
  attempts: readonly UsageAttempt[];
}

/** Every field of a record, in the order a record lists them (the columns of the SQL tables, the CSV header). */
export const usageRecordFields = [
  'id',
  'created_at',
  'type',
  'user_id',
  'token_id',
  'token_name',
  'model_name',
  'upstream_model',
  'operation',
  'client_format',
  'group',
  'is_stream',
  'prompt_tokens',
  'completion_tokens',
  'cached_tokens',
  'reasoning_tokens',
  'quota',
  'usage_source',
  'status',
  'error_code',
  'end_reason',
  'budget_overrun',
  'use_time_ms',
  'first_byte_ms',
  'request_id',
  'task_id',
  'channel',
  'attempts',
] as const satisfies ReadonlyArray<keyof UsageRecord>;

/** A record before the store gives it its id. */
export type NewUsageRecord = Omit<UsageRecord, 'id'>;

/** The fields only admins see. */
export const adminOnlyFields = ['channel', 'attempts'] as const;

/** A record as the caller may see it: everything for an admin, without {@link adminOnlyFields} for its own user. */
export function shownUsageRecord(record: UsageRecord, admin: boolean): Partial<UsageRecord> {
  if (admin) return record;
  const { channel: _channel, attempts: _attempts, ...shown } = record;
  return shown;
}

/** The wire format a client of `operation` speaks: Anthropic's Messages, the native API, or OpenAI's (every other route). */
export function clientFormatOf(operation: string): string {
  if (operation === 'messages') return 'anthropic';
  return operation.startsWith('native.') ? 'native' : 'openai';
}
