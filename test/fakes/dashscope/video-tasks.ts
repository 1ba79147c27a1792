import { randomBytes, randomUUID } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import type { DashScopeBehaviour, DashScopeTaskFailure, DashScopeTaskStatus } from './dashscope-behaviour.js';
import { sampleMp4 } from './sample-mp4.js';
import type { VideoSynthesisRequest } from './video-synthesis-request.js';

/** One video task the fake accepted, as a test inspects it. */
export interface FakeVideoTask {
  /** The `task_id` it answered, a UUID like DashScope's. */
  id: string;
  /** The request as submitted. */
  request: VideoSynthesisRequest;
  /** The states it answers, one per poll, the last one for good. */
  steps: DashScopeTaskStatus[];
  /** Polls answered so far. */
  polls: number;
  /** Set once it reached UNKNOWN: the fake no longer knows it. */
  forgotten: boolean;
}

interface KeptTask extends FakeVideoTask {
  failure: DashScopeTaskFailure;
  usage?: Record<string, unknown>;
  submitTime: string;
  scheduledTime: string;
  endTime?: string;
  /** Set once it answered SUCCEEDED: its video can be downloaded. */
  videoReady: boolean;
}

/** A FAILED task's default error: the generic server error of DashScope's table (upstreams.md §4.1). */
const internalFailure: DashScopeTaskFailure = { code: 'InternalError', message: 'An internal error has occured, please try again later or contact service support.' };

/** DashScope's refusal of a generated video by its moderation (upstreams.md §4.1: DataInspectionFailed). */
export const moderationFailure: DashScopeTaskFailure = { code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' };

const videoPath = /^\/videos\/([0-9a-f-]{36})\.mp4$/;
/** How long DashScope's video URLs stay valid (upstreams.md §4.1). */
const validitySeconds = 24 * 60 * 60;

/** `YYYY-MM-DD HH:mm:ss.SSS` in China time, as DashScope writes task times (upstreams.md §4.1). */
function dashScopeTime(milliseconds: number): string {
  return new Date(milliseconds + 8 * 3_600_000).toISOString().replace('T', ' ').replace('Z', '');
}

// Tiers by pixel count, so every documented wan2.5 size lands in its tier (832*480 and
// 624*624 are 480P, 1280*720 and 960*960 are 720P, 1920*1080 and 1440*1440 are 1080P).
const tierOfSize = (size: string) => {
  const [width, height] = size.split('*').map(Number) as [number, number];
  const pixels = width * height;
  return pixels <= 500_000 ? 480 : pixels <= 1_200_000 ? 720 : 1080;
};
const sizeOfTier: Record<number, string> = { 480: '832*480', 720: '1280*720', 1080: '1920*1080' };

/** The usage of a finished task, shaped like the recorded answers of fixture dashscope-video-task-lifecycle.json. */
function usageOf(request: VideoSynthesisRequest): Record<string, unknown> {
  const { parameters } = request;
  const duration = typeof parameters.duration === 'number' ? parameters.duration : 5;
  if (request.protocol === 'flat') {
    // `succeeded` of the fixture: a flat-input model's usage.
    const size = typeof parameters.size === 'string' ? parameters.size : undefined;
    const tier = size !== undefined ? tierOfSize(size) : Number(String(parameters.resolution ?? '1080P').replace('P', ''));
    const audio = parameters.audio !== false || request.input.audio_url !== undefined;
    return { duration, size: size ?? sizeOfTier[tier] ?? '1920*1080', output_video_duration: duration, fps: 24, video_count: 1, audio, SR: tier };
  }
  // `real_wan_succeeded` of the fixture: a media-protocol model's usage, keys as recorded.
  const tier = Number(String(parameters.resolution ?? '1080P').replace('P', ''));
  return { SR: tier, duration, fps: request.model.startsWith('happyhorse') ? 24 : 30, input_video_duration: 0, output_video_duration: duration, ratio: parameters.ratio ?? '16:9', video_count: 1 };
}

/** The video tasks the fake accepted, their lifecycle one state per poll, and their downloads. */
export class VideoTasks {
  readonly #tasks = new Map<string, KeptTask>();

  /** Every task accepted so far, by `task_id`. */
  get all(): ReadonlyMap<string, FakeVideoTask> {
    return this.#tasks;
  }

  /** Accepts a task; the answer is DashScope's submit answer (upstreams.md §4.1, fixture `create_response`). */
  create(request: VideoSynthesisRequest, behaviour: DashScopeBehaviour, now = Date.now()): Record<string, unknown> {
    const id = randomUUID();
    const steps = behaviour.taskSteps ?? ['PENDING', 'RUNNING', behaviour.taskEnd ?? 'SUCCEEDED'];
    this.#tasks.set(id, {
      id,
      request,
      steps: steps.length === 0 ? ['PENDING'] : [...steps],
      polls: 0,
      forgotten: false,
      videoReady: false,
      failure: behaviour.taskFailure ?? internalFailure,
      usage: behaviour.usage,
      submitTime: dashScopeTime(now),
      scheduledTime: dashScopeTime(now + 46),
    });
    return { output: { task_status: 'PENDING', task_id: id }, request_id: randomUUID() };
  }

  /**
   * `GET /api/v1/tasks/{id}`: the task's next state, in the shapes of upstreams.md §4.1 and
   * the fixture. A task id the fake never gave, or forgot, answers UNKNOWN with HTTP 200, as
   * DashScope does for unknown and expired ids.
   */
  poll(id: string, origin: string, now = Date.now()): Record<string, unknown> {
    const task = this.#tasks.get(id);
    const requestId = randomUUID();
    if (task === undefined || task.forgotten) return { request_id: requestId, output: { task_id: id, task_status: 'UNKNOWN' } };
    const status = task.steps[Math.min(task.polls, task.steps.length - 1)]!;
    task.polls += 1;
    const times = { submit_time: task.submitTime, scheduled_time: task.scheduledTime };
    switch (status) {
      case 'PENDING':
        return { request_id: requestId, output: { task_id: id, task_status: status, submit_time: task.submitTime } };
      case 'RUNNING':
      case 'SUSPENDED':
        return { request_id: requestId, output: { task_id: id, task_status: status, ...times } };
      case 'UNKNOWN':
        task.forgotten = true;
        return { request_id: requestId, output: { task_id: id, task_status: status } };
      case 'FAILED':
        return { request_id: requestId, output: { task_id: id, task_status: status, code: task.failure.code, message: task.failure.message } };
      case 'CANCELED':
        task.endTime ??= dashScopeTime(now);
        return { request_id: requestId, output: { task_id: id, task_status: status, submit_time: task.submitTime, end_time: task.endTime } };
      case 'SUCCEEDED': {
        task.endTime ??= dashScopeTime(now);
        task.videoReady = true;
        const expires = Math.floor(now / 1000) + validitySeconds;
        const videoUrl = `${origin}/videos/${id}.mp4?Expires=${expires}&OSSAccessKeyId=fake-access-key&Signature=${randomBytes(12).toString('base64url')}`;
        return {
          request_id: requestId,
          output: { task_id: id, task_status: status, ...times, end_time: task.endTime, orig_prompt: task.request.prompt, video_url: videoUrl },
          usage: task.usage ?? usageOf(task.request),
        };
      }
    }
  }

  /** Whether a GET of `path` is a video download. */
  static isVideoPath(path: string): boolean {
    return videoPath.test(path);
  }

  /** The download of `path`: the sample MP4 for a task that succeeded, else the object store's 404. */
  download(path: string): PiecewiseAnswer {
    const id = videoPath.exec(path)?.[1];
    const task = id === undefined ? undefined : this.#tasks.get(id);
    if (task === undefined || !task.videoReady) {
      const text = '<?xml version="1.0" encoding="UTF-8"?>\n<Error>\n  <Code>NoSuchKey</Code>\n  <Message>The specified key does not exist.</Message>\n</Error>\n';
      return { status: 404, headers: { 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
    }
    return { status: 200, headers: { 'content-type': 'video/mp4', 'content-length': String(sampleMp4.length) }, pieces: [sampleMp4], streamed: false };
  }
}
