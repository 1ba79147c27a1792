import { randomBytes } from 'node:crypto';
import type { PiecewiseAnswer } from '../../../core/testing/index.js';
import { googleCompactJson } from '../../fakes/gx/google-json.js';
import { countTokens, isObject, objects, recorderTurn, type RecorderScript } from './recorder-turn.js';

/**
 * The recorder's answer on the native `:generateContent` and `:streamGenerateContent` (with
 * `alt=sse`: `data: <compact JSON>\r\n\r\n` events, the last with `finishReason`, as fixture
 * gemini-stream-multi-chunk.sse in test/fixtures/gx), a text part or one `functionCall` part,
 * with `usageMetadata` on every event. `:countTokens` gets `{ totalTokens }`.
 */
export function googleGenerateAnswer(method: string, model: string, body: unknown, sse: boolean, script: RecorderScript): PiecewiseAnswer {
  const request = isObject(body) ? body : {};
  const contents = objects(request.contents);
  const promptTokens = countTokens(JSON.stringify(request.systemInstruction ?? '') + JSON.stringify(contents));
  if (method === 'countTokens') return json({ totalTokens: promptTokens });

  const toolNames = objects(request.tools).flatMap((tool) => objects(tool.functionDeclarations)).map((declaration) => String(declaration.name));
  const lastParts = objects(contents.at(-1)?.parts);
  const turn = recorderTurn(script, toolNames, lastParts.some((part) => isObject(part.functionResponse)));
  const part = turn.kind === 'text' ? { text: turn.text } : { functionCall: { name: turn.name, args: turn.arguments } };
  const candidatesTokens = countTokens(JSON.stringify(part));
  const answer = {
    candidates: [{ content: { parts: [part], role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: promptTokens, candidatesTokenCount: candidatesTokens, totalTokenCount: promptTokens + candidatesTokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }] },
    modelVersion: model,
    responseId: randomBytes(12).toString('base64url'),
  };
  if (method === 'generateContent') return json(answer);
  if (!sse) return json([answer]);
  return { status: 200, headers: { 'content-type': 'text/event-stream', 'content-disposition': 'attachment' }, pieces: [`data: ${googleCompactJson(answer)}\r\n\r\n`], streamed: true };
}

function json(value: unknown): PiecewiseAnswer {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  return { status: 200, headers: { 'content-type': 'application/json; charset=UTF-8', 'content-length': String(Buffer.byteLength(text)) }, pieces: [text], streamed: false };
}
