/**
 * What every benchmark request asks, in the two wire formats: the OpenAI-style chat body the
 * gateway translates, and the native gx body it translates to (what the direct and
 * pass-through targets are sent, so all three targets make the upstream do the same work).
 */

/** The model every benchmark request names. */
export const benchModel = 'gx-2.5-flash';

/** The key the fast fake upstream accepts. */
export const benchUpstreamKey = 'gx-bench-upstream-key';

const systemText = 'You are a concise assistant.';
/** The fake echoes it one word per stream event, so the stream has a dozen events. */
const userText = 'Explain in one sentence why a gateway in front of model vendors helps a team.';
const maxOutputTokens = 256;

/** The body of `POST /v1/chat/completions`, non-stream or stream (with usage in the last chunk). */
export function chatCompletionBody(stream: boolean): string {
  return JSON.stringify({
    model: benchModel,
    messages: [
      { role: 'system', content: systemText },
      { role: 'user', content: userText },
    ],
    max_tokens: maxOutputTokens,
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  });
}

/** The native body of `:generateContent` / `:streamGenerateContent` equivalent to {@link chatCompletionBody}. */
export function nativeGenerateBody(): string {
  return JSON.stringify({
    contents: [{ role: 'user', parts: [{ text: userText }] }],
    systemInstruction: { parts: [{ text: systemText }] },
    generationConfig: { maxOutputTokens },
  });
}

/** The native path the gateway calls for the chat body, `stream` choosing the SSE stream. */
export function nativeGeneratePath(stream: boolean): string {
  return stream ? `/v1beta/models/${benchModel}:streamGenerateContent?alt=sse` : `/v1beta/models/${benchModel}:generateContent`;
}
