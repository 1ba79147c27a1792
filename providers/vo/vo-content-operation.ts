import { emptyUsage, headerValue, videoNotReady, type BytesResult, type GoogleApiOptions, type OperationCall, type ProviderHost, type VideoTaskQuery } from '../../core/index.js';
import { getVoOperation } from './call-vo.js';
import { downloadVoVideo } from './download-vo-video.js';
import { readVoOperation } from './from-vo-operation.js';


/**
 * `video.content`: the finished task's first video, streamed from the upstream. The operation
 * is read again for its address (the handle is only the operation's name), then the video is
 * fetched by {@link downloadVoVideo}: with the channel's key from the channel's origin, through
 * the media guard from anywhere else.
 */
export function createVoContentOperation(host: ProviderHost) {
  return async (call: OperationCall<VideoTaskQuery, GoogleApiOptions>): Promise<BytesResult> => {
    const { progress, videoUris } = readVoOperation(await getVoOperation(host, call, call.request.handle));
    const uri = videoUris[0];
    if (uri === undefined) {
      throw videoNotReady(`the upstream has no video for this task (it is ${progress.status})`);
    }
    const response = await downloadVoVideo(host, call, uri);
    const contentType = headerValue(response, 'content-type')?.split(';', 1)[0]?.trim();
    return { kind: 'bytes', body: response.body, contentType: contentType === undefined || contentType === '' ? 'video/mp4' : contentType, usage: emptyUsage('upstream') };
  };
}
