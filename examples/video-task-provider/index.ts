// A third-party provider plugin: text-to-video tasks on a DashScope-style asynchronous API
// (reference upstreams.md §4.1, recorded in fixtures/task-lifecycle.json). `video.submit` starts
// a task and answers its handle; the gateway keeps the task, holds its quota and later asks
// `video.status` on the same channel until the task succeeds (billed) or fails (refunded).
import { z } from 'zod';
import {
  defineProvider,
  invalidRequest,
  taskVanished,
  type OperationCall,
  type ProviderHost,
  type TaskStatus,
  type UpstreamResponse,
  type Usage,
} from 'model-gateway';
import {
  bearerAuthorization,
  callUpstream,
  createStatusErrorMapper,
  describeUpstreamError,
  invalidUpstreamAnswer,
  parseUpstreamJson,
} from 'model-gateway/kit';

const optionsSchema = z.strictObject({ watermark: z.boolean().default(false) });
type Options = z.output<typeof optionsSchema>;

/** What `prepare` makes of a client's submission, once, before any quota is reserved. */
interface Plan {
  prompt: string;
  seconds: 5 | 10;
  /** The upstream's `W*H`. */
  size: string;
  resolution: string;
}

// Strict on the client's fields this family reads; the route already checked `model`.
const submissionSchema = z.looseObject({
  prompt: z.string({ error: 'expected the prompt as text' }).min(1, { error: 'must not be empty' }),
  seconds: z.coerce.number().pipe(z.union([z.literal(5), z.literal(10)], { error: 'this model makes videos of 5 or 10 seconds' })).default(5),
  size: z.string().regex(/^\d{3,4}x\d{3,4}$/, { error: 'expected WIDTHxHEIGHT, such as 1280x720' }).default('1280x720'),
});

// Lenient on the upstream's bodies: only what is read is checked.
const taskSchema = z.looseObject({
  output: z.looseObject({ task_id: z.string(), task_status: z.string(), video_url: z.string().nullish(), code: z.string().nullish(), message: z.string().nullish() }),
});
/** The upstream's error body `{request_id, code, message}`, in words: `No API-key provided. (InvalidApiKey)`. */
const statusError = createStatusErrorMapper({
  errorSchema: z.looseObject({ code: z.string().nullish(), message: z.string().nullish() }),
  describe: (body) => describeUpstreamError(body.message, body.code),
});

const usageOf = (seconds: number, resolution: string): Usage => ({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, seconds, resolution, source: 'estimated' });

async function readTask(response: UpstreamResponse) {
  const parsed = taskSchema.safeParse(await response.body.text().then(parseUpstreamJson).catch(() => undefined));
  if (!parsed.success) throw invalidUpstreamAnswer('a video task', { cause: parsed.error, retryable: false });
  return parsed.data;
}

// The upstream's states onto the gateway's (§4.1): PENDING → RUNNING → SUCCEEDED | FAILED, CANCELED.
const states: Record<string, TaskStatus> = { PENDING: 'queued', RUNNING: 'in_progress', SUSPENDED: 'in_progress', SUCCEEDED: 'succeeded', FAILED: 'failed', CANCELED: 'failed' };

const tasksUrl = (call: OperationCall<unknown, Options>, path: string) => `${call.channel.baseUrl}/api/v1${path}`;

export default defineProvider<Options, { 'video.submit': Plan }>({
  apiVersion: 2,
  name: 'acme-video-task',
  options: optionsSchema,
  prepare: {
    'video.submit': (request) => {
      const parsed = submissionSchema.safeParse(request);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw invalidRequest(`${issue.path.join('.')}: ${issue.message}`, { param: issue.path.join('.') });
      }
      const [width, height] = parsed.data.size.split('x').map(Number) as [number, number];
      return { prompt: parsed.data.prompt, seconds: parsed.data.seconds as 5 | 10, size: `${width}*${height}`, resolution: `${Math.min(width, height)}p` };
    },
  },
  create: (options, host: ProviderHost) => ({
    estimate: { 'video.submit': (plan) => usageOf(plan.seconds, plan.resolution) },
    operations: {
      'video.submit': async (call) => {
        const plan = call.request;
        const response = await callUpstream(
          host,
          call,
          {
            url: tasksUrl(call, '/services/aigc/video-generation/video-synthesis'),
            headers: { ...bearerAuthorization(call), 'x-dashscope-async': 'enable' }, // the video API is asynchronous only
            body: JSON.stringify({ model: call.upstreamModel, input: { prompt: plan.prompt }, parameters: { size: plan.size, duration: plan.seconds, watermark: options.watermark } }),
          },
          statusError,
        );
        const task = await readTask(response);
        return { kind: 'task', handle: task.output.task_id, usage: usageOf(plan.seconds, plan.resolution), details: { seconds: plan.seconds, size: plan.size.replace('*', 'x') } };
      },
      'video.status': async (call) => {
        const response = await callUpstream(host, call, { method: 'GET', url: tasksUrl(call, `/tasks/${encodeURIComponent(call.request.handle)}`), headers: bearerAuthorization(call) }, statusError);
        const { output } = await readTask(response);
        // UNKNOWN: the id is not known or older than 24 h; the gateway fails the task and refunds it.
        if (output.task_status === 'UNKNOWN') throw taskVanished(`the upstream no longer knows task ${output.task_id}`);
        const status = states[output.task_status];
        if (status === undefined) throw invalidUpstreamAnswer(`a known task status, not ${output.task_status}`, { retryable: false });
        if (status === 'failed') return { kind: 'task-progress', status, error: { code: 400, message: output.message ?? 'the task failed', type: output.code ?? undefined } };
        if (status !== 'succeeded') return { kind: 'task-progress', status };
        // The usage reserved at submit is billed: the upstream reports no more than the seconds asked for.
        return { kind: 'task-progress', status, url: output.video_url ?? undefined };
      },
    },
  }),
});
