import { callUpstream, readUpstreamAnswer, type OperationCall, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { dsxCall, dsxTaskQueryError } from './call-dsx.js';
import type { DsxOptions } from './dsx-options.js';
import { dsxTaskSchema, type DsxTask } from './dsx-schemas.js';

/**
 * `GET /contents/generations/tasks/{id}` (upstreams.md §3.3). A 404 becomes a 404 gateway
 * error (core then marks the task vanished and refunds it); other failures leave the task
 * as it is. An unreadable 2xx is a retryable 502.
 */
export async function readDsxTask(host: ProviderHost, call: OperationCall<VideoTaskQuery, DsxOptions>): Promise<DsxTask> {
  // The handle is Ark's task id, `cgt-...`.
  const response = await callUpstream(host, call, dsxCall(call, 'GET', `/contents/generations/tasks/${encodeURIComponent(call.request.handle)}`), dsxTaskQueryError);
  return readUpstreamAnswer(response.body, 'a task object', { retryable: true }, dsxTaskSchema);
}
