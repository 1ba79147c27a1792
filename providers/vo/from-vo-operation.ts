import { z } from 'zod';
import { emptyTaskResult, failedTask, taskProgress, type TaskProgress } from '../../core/index.js';
import { parseUpstreamAnswer, redactSecrets } from '../../core/kit/index.js';
import { describeGoogleRpcCode, googleRpcStatusSchema } from '../shared/google-api/google-api-errors.js';

// A long-running operation, as the submit and every poll answer it. Lenient on purpose: only
// what the gateway reads, every field optional, unknown ones kept (upstreams.md §1.11 marks
// much of the operation shape [M]; fixture gemini-veo-operation.json). A missing `done` means
// not done.
const voOperationSchema = z.looseObject({
  name: z.string().nullish(),
  done: z.boolean().nullish(),
  error: googleRpcStatusSchema.nullish(),
  response: z
    .looseObject({
      generateVideoResponse: z
        .looseObject({
          generatedSamples: z.array(z.looseObject({ video: z.looseObject({ uri: z.string().nullish() }).nullish() })).nullish(),
          raiMediaFilteredCount: z.number().nullish(),
          raiMediaFilteredReasons: z.array(z.string()).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

/** What a poll answer is expected to be: an operation. */
export const voOperationExpected = 'a long-running operation';

/**
 * An operation (upstreams.md §1.11, fixture gemini-veo-operation.json) as the task's progress
 * and the addresses of the videos made, in order (providers/vo/README.md: not done is
 * `in_progress`, as the upstream shows no queue; any video is a success, even when the safety
 * filters removed others; none is `content_filtered` or `empty_response`). No `url`: the
 * addresses work only with the channel's key. A 502 for an answer that is not an operation.
 */
export function readVoOperation(json: unknown): { progress: TaskProgress; videoUris: string[] } {
  // Not an operation: a 502, and the task stays as it was and is asked about again.
  const operation = parseUpstreamAnswer(json, voOperationSchema, voOperationExpected);
  if (operation.error !== undefined && operation.error !== null) {
    const { http, name } = describeGoogleRpcCode(operation.error.code, operation.error.status);
    const message = operation.error.message === undefined || operation.error.message === null || operation.error.message === '' ? `the upstream failed the task (${name})` : redactSecrets(operation.error.message);
    return { progress: failedTask(http, message, name), videoUris: [] };
  }
  if (operation.done !== true) return { progress: taskProgress('in_progress'), videoUris: [] };

  const answer = operation.response?.generateVideoResponse;
  const videoUris = (answer?.generatedSamples ?? []).flatMap((sample) => {
    const uri = sample.video?.uri;
    return typeof uri === 'string' && uri !== '' ? [uri] : [];
  });
  if (videoUris.length > 0) return { progress: taskProgress('succeeded', { progress: 100 }), videoUris };

  const filtered = answer?.raiMediaFilteredCount ?? 0;
  const reasons = (answer?.raiMediaFilteredReasons ?? []).filter((reason) => reason.trim() !== '');
  if (filtered > 0 || reasons.length > 0) {
    const because = reasons.length === 0 ? '' : `: ${reasons.join(' ')}`;
    return { progress: failedTask(400, `the upstream's safety filters removed the video${because}; change the prompt or the frames`, 'content_filtered'), videoUris: [] };
  }
  return { progress: emptyTaskResult('the upstream finished the task without any video'), videoUris: [] };
}
