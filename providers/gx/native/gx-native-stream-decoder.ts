import { upstreamStreamTruncated, type SseFrame, type StreamDecoder, type StreamOutput } from '../../../core/index.js';
import { readJsonFrame, stopAfterFirstError, streamFailure as fail } from '../../../core/kit/index.js';
import { convertGxUsage, tallyGxProducedOutput, type GxProducedOutput } from '../convert-gx-usage.js';
import { emptyGxResponse, gxInBandError, gxResponseExpected } from '../gx-error.js';
import { readGxResponse, type GxCandidate } from '../gx-schemas.js';
import { isGxFilterStop } from '../chat/from-gx-response.js';

/** Characters of text in a frame's candidates: what an estimate counts when the stream ends without usage. */
function textCharacters(candidates: GxCandidate[]): number {
  let characters = 0;
  for (const candidate of candidates) for (const part of candidate.content?.parts ?? []) characters += typeof part.text === 'string' ? part.text.length : 0;
  return characters;
}

/**
 * The decoder of the native passthrough (`:streamGenerateContent`): every upstream frame is
 * re-emitted with its data text unchanged (reference-gateway.md §6), as content when a
 * candidate in it has parts; each `usageMetadata` is reported as usage, with the inline
 * images produced so far; a candidate's filter stop (SAFETY…) or a blocked prompt is reported
 * as `content_filter` beside its frame. An `{error}` frame or a frame that is not JSON becomes an `error`
 * output, after which the decoder stays silent; a stream without any frame is a retryable
 * `empty_response`, and one that carried output but ended before any candidate's
 * `finishReason` broke off (`upstream_stream_truncated`). A frame of an unexpected shape is
 * still forwarded (the client reads the native format itself). No `[DONE]`: the native
 * stream has none (upstreams.md §1.4).
 */
export function createGxNativeStreamDecoder(): StreamDecoder {
  let frames = 0;
  let contentSeen = false;
  let finished = false;
  const produced: GxProducedOutput = { images: 0, audio: false };

  return stopAfterFirstError({
    push(frame: SseFrame): StreamOutput[] {
      // Blank frames and a stray `[DONE]` are skipped; an `{"error": ...}` object is the
      // upstream's in-band error, judged by its status (reference/upstreams.md §1.4).
      const read = readJsonFrame(frame, gxResponseExpected, gxInBandError);
      if (read.kind === 'blank' || read.kind === 'done') return [];
      if (read.kind === 'error') return fail(read.error);
      frames += 1;
      const parsed = readGxResponse(read.json);
      if (!parsed.success) return [{ type: 'event', data: frame.data, content: false }];

      const candidates = parsed.data.candidates ?? [];
      const content = candidates.some((candidate) => (candidate.content?.parts?.length ?? 0) > 0);
      contentSeen ||= content;
      if (candidates.some((candidate) => typeof candidate.finishReason === 'string' && candidate.finishReason !== '')) finished = true;
      const outputs: StreamOutput[] = [{ type: 'event', data: frame.data, content, outputCharacters: textCharacters(candidates) }];
      // A filter's stop or a blocked prompt: the core judges whether it came before any content.
      const blocked = candidates.length === 0 && (parsed.data.promptFeedback?.blockReason ?? '') !== '';
      if (blocked || candidates.some((candidate) => isGxFilterStop(candidate.finishReason))) outputs.push({ type: 'content_filter' });
      tallyGxProducedOutput(candidates, produced);
      const usageMetadata = parsed.data.usageMetadata;
      if (usageMetadata !== undefined && usageMetadata !== null) outputs.push({ type: 'usage', usage: convertGxUsage(usageMetadata, produced) });
      return outputs;
    },

    end(): StreamOutput[] {
      if (frames > 0) return contentSeen && !finished ? fail(upstreamStreamTruncated()) : [];
      return fail(emptyGxResponse());
    },
  });
}
