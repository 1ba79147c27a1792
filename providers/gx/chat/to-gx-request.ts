import { invalidRequest, type ChatCompletionRequest, type FetchedMedia } from '../../../core/index.js';
import { isRecord } from '../../../core/kit/index.js';
import type { GxRequest } from '../call-gx.js';
import { parseGxThinkingSuffix, readGxThinkingConfig, thinkingConfigForEffort, type GxThinkingConfig } from '../gx-thinking.js';
import { cleanGxSchema, isEmptyObjectSchema } from './clean-gx-schema.js';
import { toGxContents } from './to-gx-contents.js';

/** The upstream takes at most this many stop sequences (spec part 1, "Limits"). */
const maximumStopSequences = 5;

/**
 * `audio` as the native `speechConfig`. The object is passed through (spec part 1); the
 * OpenAI-style `voice` name becomes `voiceConfig.prebuiltVoiceConfig.voiceName` (an explicit
 * `voiceConfig` wins), and `format` is left out: the upstream has no such field (its
 * audio is always PCM) and answers 400 to unknown ones.
 */
function toSpeechConfig(audio: Record<string, unknown>): Record<string, unknown> {
  const { voice, format: _format, ...speechConfig } = audio;
  if (typeof voice === 'string') speechConfig.voiceConfig ??= { prebuiltVoiceConfig: { voiceName: voice } };
  else if (voice !== undefined) speechConfig.voice = voice;
  return speechConfig;
}

/** The native `generationConfig`, every field the spec's mapping table names; fields the client left out stay out, so the upstream's defaults apply. */
function toGxGenerationConfig(request: ChatCompletionRequest): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  const copy = (name: string, value: unknown) => {
    if (value !== undefined && value !== null) config[name] = value;
  };
  copy('temperature', request.temperature);
  copy('topP', request.top_p);
  copy('topK', request.top_k);
  copy('seed', request.seed);
  copy('maxOutputTokens', request.max_completion_tokens ?? request.max_tokens);
  if (request.stop !== undefined && request.stop !== null) {
    const stops = (typeof request.stop === 'string' ? [request.stop] : request.stop).slice(0, maximumStopSequences);
    if (stops.length > 0) config.stopSequences = stops;
  }
  copy('frequencyPenalty', request.frequency_penalty);
  copy('presencePenalty', request.presence_penalty);
  if (typeof request.n === 'number' && request.n > 1) config.candidateCount = request.n;
  copy('responseLogprobs', request.logprobs);
  copy('logprobs', request.top_logprobs);
  if (request.modalities !== undefined && request.modalities !== null && request.modalities.length > 0) {
    config.responseModalities = request.modalities.map((modality) => modality.toUpperCase());
  }
  if (request.audio !== undefined && request.audio !== null) config.speechConfig = toSpeechConfig(request.audio);

  const format = request.response_format;
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    const schema = format.type === 'json_schema' ? format.json_schema?.schema : undefined;
    if (schema !== undefined) config.responseSchema = cleanGxSchema(schema);
  }
  return config;
}

/** Function names that switch on a native tool instead of declaring a function (spec part 1). */
const nativeTools = new Set(['gxSearch', 'codeExecution', 'urlContext']);

const modes: Record<string, string> = { auto: 'AUTO', none: 'NONE', required: 'ANY' };

/**
 * Adds the native `tools` and `toolConfig` for chat `tools` and `tool_choice` (spec part 1,
 * reference-gateway.md §4.4), each only when there is something to send: functions go into
 * one `functionDeclarations` entry (parameters reduced to the native schema, left out when
 * they declare no properties); `gxSearch`, `codeExecution` and `urlContext` each become their
 * own native tool entry `{name: {}}`, once. `tool_choice` `auto`/`none`/`required` become mode
 * AUTO/NONE/ANY, a named function ANY with `allowedFunctionNames`. A `toolConfig` is only
 * sent alongside declared functions: the upstream rejects a calling mode without them, and a
 * native tool cannot be forced. Naming a function that `tools` lacks is a 400.
 */
function addGxTools(body: Record<string, unknown>, { tools, tool_choice: toolChoice }: ChatCompletionRequest): void {
  const declarations: Record<string, unknown>[] = [];
  const enabled: string[] = [];
  for (const tool of tools ?? []) {
    const { name, description, parameters } = tool.function;
    if (nativeTools.has(name)) {
      if (!enabled.includes(name)) enabled.push(name);
      continue;
    }
    const declaration: Record<string, unknown> = { name };
    if (description !== undefined && description !== '') declaration.description = description;
    if (parameters !== undefined) {
      const schema = cleanGxSchema(parameters);
      if (!isEmptyObjectSchema(schema)) declaration.parameters = schema;
    }
    declarations.push(declaration);
  }

  const entries: Record<string, unknown>[] = [];
  if (declarations.length > 0) entries.push({ functionDeclarations: declarations });
  for (const name of enabled) entries.push({ [name]: {} });
  if (entries.length > 0) body.tools = entries;

  if (typeof toolChoice === 'string') {
    if (declarations.length > 0) body.toolConfig = { functionCallingConfig: { mode: modes[toolChoice] ?? 'AUTO' } };
  } else if (toolChoice !== undefined && toolChoice !== null) {
    const name = toolChoice.function.name;
    if (declarations.some((declaration) => declaration.name === name)) {
      body.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
    } else if (!nativeTools.has(name)) {
      throw invalidRequest(`tool_choice.function.name: "${name}" is not one of the functions in tools`, { param: 'tool_choice.function.name' });
    }
  }
}

/** The thinking configuration the request asks for, by precedence. */
function thinkingConfig(request: ChatCompletionRequest, passthrough: Record<string, unknown> | undefined, suffixConfig: GxThinkingConfig | undefined, model: string) {
  // With extra_body.gx present the client drives the native request itself, so the
  // automatic adaptation (suffix, reasoning_effort) stays off (spec part 1, rule 3).
  if (passthrough !== undefined) return readGxThinkingConfig(passthrough.thinking_config);
  if (suffixConfig !== undefined) return suffixConfig;
  const effort = request.reasoning_effort;
  return effort === undefined || effort === null ? undefined : thinkingConfigForEffort(effort, model);
}

/**
 * Deep-merges `extra_body.gx` into the native request (spec part 1, "extra_body.gx
 * passthrough"): where both sides hold an object the two merge recursively; a scalar, an
 * array or null in the patch replaces the base value; base keys the patch lacks are kept.
 * Neither input is changed. `__proto__` keys are skipped, so client JSON cannot reach a
 * prototype.
 */
export function mergeGxPassthrough(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key === '__proto__') continue;
    const current = result[key];
    result[key] = isRecord(current) && isRecord(value) ? mergeGxPassthrough(current, value) : value;
  }
  return result;
}

/**
 * Translates a chat completion request into the native generate request (spec part 1,
 * "POST /v1/chat/completions"): contents and system instruction from the messages,
 * generation settings, tools, thinking (from `extra_body.gx.thinking_config`, else the
 * model id's suffix, else `reasoning_effort`), then the rest of `extra_body.gx` deep-merged
 * over the result. Pure: every URL `collectMediaReferences` listed must already be in
 * `media`; `upstreamModel` is after the channel's model map, thinking suffix included.
 * @throws GatewayError 400 `invalid_request` naming the field, for input the upstream cannot take.
 */
export function toGxRequest(request: ChatCompletionRequest, options: { upstreamModel: string; media: ReadonlyMap<string, FetchedMedia> }): GxRequest {
  const suffix = parseGxThinkingSuffix(options.upstreamModel);
  const passthrough = request.extra_body?.gx;
  const { contents, systemInstruction } = toGxContents(request.messages, options.media);

  let body: Record<string, unknown> = { contents };
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  const generationConfig = toGxGenerationConfig(request);
  const thinking = thinkingConfig(request, passthrough, suffix.thinkingConfig, suffix.model);
  if (thinking !== undefined) generationConfig.thinkingConfig = thinking;
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  addGxTools(body, request);

  if (passthrough !== undefined) {
    const { thinking_config: _thinkingConfig, ...nativeFields } = passthrough;
    body = mergeGxPassthrough(body, nativeFields);
  }
  return { model: suffix.model, body };
}
