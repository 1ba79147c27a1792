import type { BytesResult } from '../../core/contracts/provider/operation-results.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import type { TaskRecord } from '../../core/tasks/task-record.js';

/**
 * The download record of spec part 2 for a finished task: the video's bytes (capped at
 * `maxBytes`, since they travel as base64 inside JSON) with their size, base64 and data URL.
 */
export async function downloadRecord(record: TaskRecord, result: BytesResult, maxBytes: number): Promise<Record<string, unknown>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of result.body) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await result.body.dump().catch(() => {});
      throw new GatewayError(413, 'video_too_large', `the video is larger than ${maxBytes} bytes, the limit for downloads through the gateway (tasks.max_download_mb); fetch it from the task's url instead`);
    }
    chunks.push(chunk);
  }
  const base64 = Buffer.concat(chunks).toString('base64');
  const format = 'mp4';
  return {
    success: true,
    generation_id: record.handle,
    task_id: record.id,
    format,
    size,
    base64,
    data_url: `data:video/${format};base64,${base64}`,
  };
}
