import { type ChatCompletionRequest, type NativeGenerateRequest } from '../../core/index.js';
import { fieldError, isRecord, quoted } from '../../core/kit/index.js';
import { toJsonSchema } from './to-json-schema.js';

type ChatOptions = Partial<Omit<ChatCompletionRequest, 'model' | 'messages'>>;
type ChatTool = NonNullable<ChatCompletionRequest['tools']>[number];

const budgetEfforts: readonly [number, 'minimal' | 'low' | 'medium' | 'high'][] = [
  [512, 'minimal'],
  [1024, 'low'],
  [8192, 'medium'],
];

/**
 * `thinkingConfig` as `reasoning_effort`: a `thinkingLevel` by its name (`HIGH` → `high`), a
 * `thinkingBudget` by the band it falls in, the inverse of the budgets the gx family gives
 * each effort (0 none, up to 512 minimal, 1024 low, 8192 medium, above high); -1 (the model's
 * own budget) and `includeThoughts` alone set no effort. Thoughts come back whenever the
 * chat answer has reasoning.
 */
function reasoningEffort(config: unknown): ChatOptions['reasoning_effort'] {
  if (config === undefined) return undefined;
  if (!isRecord(config)) throw fieldError('generationConfig.thinkingConfig', 'expected an object such as {"thinkingBudget": 1024}');
  const level = config.thinkingLevel;
  if (typeof level === 'string' && level !== 'THINKING_LEVEL_UNSPECIFIED') {
    const effort = level.toLowerCase();
    if (effort === 'minimal' || effort === 'low' || effort === 'medium' || effort === 'high') return effort;
    throw fieldError('generationConfig.thinkingConfig.thinkingLevel', 'expected MINIMAL, LOW, MEDIUM or HIGH');
  }
  const budget = config.thinkingBudget;
  if (budget === undefined || budget === -1) return undefined;
  if (typeof budget !== 'number' || !Number.isInteger(budget) || budget < -1) throw fieldError('generationConfig.thinkingConfig.thinkingBudget', 'expected a whole number of tokens, 0 for none or -1 for the model’s own');
  if (budget === 0) return 'none';
  return budgetEfforts.find(([limit]) => budget <= limit)?.[1] ?? 'high';
}

/** `responseMimeType` with its schema as `response_format`: JSON with a schema as `json_schema`, JSON without one as `json_object`. */
function responseFormat(config: Record<string, unknown>): ChatOptions['response_format'] {
  const mimeType = config.responseMimeType;
  if (mimeType === undefined || mimeType === 'text/plain') return undefined;
  if (mimeType !== 'application/json') {
    throw fieldError('generationConfig.responseMimeType', 'chat completions can answer only text/plain or application/json');
  }
  const schema = config.responseJsonSchema ?? (config.responseSchema === undefined ? undefined : toJsonSchema(config.responseSchema));
  if (schema === undefined) return { type: 'json_object' };
  if (!isRecord(schema)) throw fieldError(config.responseJsonSchema === undefined ? 'generationConfig.responseSchema' : 'generationConfig.responseJsonSchema', 'expected a schema object');
  return { type: 'json_schema', json_schema: { name: 'response', schema } };
}

const numberIn = (value: unknown, field: string, minimum: number, maximum: number): number | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || value < minimum || value > maximum) throw fieldError(field, `expected a number from ${minimum} to ${maximum}`);
  return value;
};

/**
 * `generationConfig` as chat options. Mapped: `temperature`, `topP`, `maxOutputTokens`
 * (`max_completion_tokens`, which reasoning models require), `stopSequences`, `seed`, the
 * penalties, `responseLogprobs` / `logprobs`, `responseMimeType` with `responseSchema` or
 * `responseJsonSchema`, `thinkingConfig`. Refused, since the answer could not be what was
 * asked: `candidateCount` above 1, `responseModalities` other than `TEXT`, `speechConfig`,
 * `imageConfig`. Left out: `topK`, which the OpenAI chat format has no field for and
 * OpenAI-format upstreams refuse (Gemini CLI sends 64 on every call), and the native-only
 * hints (`mediaResolution` and the like).
 */
function generationOptions(config: NativeGenerateRequest['generationConfig']): ChatOptions {
  if (config === undefined) return {};
  const options: ChatOptions = {};
  if (config.candidateCount !== undefined && config.candidateCount !== 1) throw fieldError('generationConfig.candidateCount', 'chat completions translate one candidate; expected 1');
  for (const modality of config.responseModalities ?? []) {
    if (modality.toUpperCase() !== 'TEXT') throw fieldError('generationConfig.responseModalities', 'this model answers in text only; expected ["TEXT"]');
  }
  for (const field of ['speechConfig', 'imageConfig'] as const) {
    if (config[field] !== undefined) throw fieldError(`generationConfig.${field}`, 'this model answers in text only; leave it out');
  }
  if (config.temperature !== undefined) options.temperature = config.temperature;
  options.top_p = numberIn(config.topP, 'generationConfig.topP', 0, 1);
  if (config.maxOutputTokens !== undefined) options.max_completion_tokens = config.maxOutputTokens;
  if (config.stopSequences !== undefined && config.stopSequences.length > 0) options.stop = config.stopSequences;
  if (config.seed !== undefined) {
    if (typeof config.seed !== 'number' || !Number.isInteger(config.seed)) throw fieldError('generationConfig.seed', 'expected a whole number');
    options.seed = config.seed;
  }
  options.presence_penalty = numberIn(config.presencePenalty, 'generationConfig.presencePenalty', -2, 2);
  options.frequency_penalty = numberIn(config.frequencyPenalty, 'generationConfig.frequencyPenalty', -2, 2);
  if (config.responseLogprobs === true) options.logprobs = true;
  if (config.logprobs !== undefined) {
    options.top_logprobs = numberIn(config.logprobs, 'generationConfig.logprobs', 0, 20);
    options.logprobs = true;
  }
  options.response_format = responseFormat(config);
  options.reasoning_effort = reasoningEffort(config.thinkingConfig);
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** `tools[].functionDeclarations` as chat function tools; any other native tool is a 400: chat completions have no built-in search or code execution. */
function chatTools(tools: NativeGenerateRequest['tools']): ChatTool[] {
  return (tools ?? []).flatMap((tool, index) => {
    const other = Object.keys(tool).find((key) => key !== 'functionDeclarations');
    if (other !== undefined) {
      throw fieldError(`tools[${index}].${other}`, 'chat completions have no such built-in tool; only functionDeclarations can be translated');
    }
    const declarations = tool.functionDeclarations ?? [];
    if (!Array.isArray(declarations)) throw fieldError(`tools[${index}].functionDeclarations`, 'expected an array of {name, description, parameters}');
    return declarations.map((declaration: unknown, position): ChatTool => {
      const field = `tools[${index}].functionDeclarations[${position}]`;
      if (!isRecord(declaration) || typeof declaration.name !== 'string' || declaration.name === '') throw fieldError(`${field}.name`, 'required: the function name');
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        throw fieldError(field, 'set parameters or parametersJsonSchema, not both');
      }
      const parameters = declaration.parametersJsonSchema ?? (declaration.parameters === undefined ? undefined : toJsonSchema(declaration.parameters));
      if (parameters !== undefined && !isRecord(parameters)) throw fieldError(`${field}.parameters`, 'expected a schema object');
      const fn: ChatTool['function'] = { name: declaration.name };
      if (typeof declaration.description === 'string') fn.description = declaration.description;
      if (parameters !== undefined) fn.parameters = parameters;
      return { type: 'function', function: fn };
    });
  });
}

/**
 * `toolConfig.functionCallingConfig` as `tool_choice`: AUTO (and VALIDATED, unspecified) is
 * `auto`, NONE `none`, ANY `required`, or the one function when `allowedFunctionNames` names
 * one. `allowedFunctionNames` otherwise keeps only the tools it names, the way the native API
 * restricts the calls.
 */
function toolChoice(toolConfig: NativeGenerateRequest['toolConfig'], tools: ChatTool[]): { tools?: ChatTool[]; tool_choice?: ChatCompletionRequest['tool_choice'] } {
  if (tools.length === 0) return {};
  const config = toolConfig?.functionCallingConfig;
  if (config === undefined) return { tools };
  if (!isRecord(config)) throw fieldError('toolConfig.functionCallingConfig', 'expected an object such as {"mode": "AUTO"}');
  const mode = config.mode ?? 'AUTO';
  const names = config.allowedFunctionNames;
  if (names !== undefined && (!Array.isArray(names) || !names.every((name) => typeof name === 'string'))) {
    throw fieldError('toolConfig.functionCallingConfig.allowedFunctionNames', 'expected an array of function names');
  }
  const unknown = (names ?? []).find((name) => !tools.some((tool) => tool.function.name === name));
  if (unknown !== undefined) throw fieldError('toolConfig.functionCallingConfig.allowedFunctionNames', `${quoted(unknown)} is not a declared function`);
  if (mode === 'NONE') return { tools, tool_choice: 'none' };
  if (mode !== 'ANY' && mode !== 'AUTO' && mode !== 'VALIDATED' && mode !== 'MODE_UNSPECIFIED') {
    throw fieldError('toolConfig.functionCallingConfig.mode', 'expected AUTO, ANY, NONE or VALIDATED');
  }
  const [only] = names ?? [];
  if (mode === 'ANY' && names?.length === 1 && only !== undefined) return { tools, tool_choice: { type: 'function', function: { name: only } } };
  const allowed = names === undefined || names.length === 0 ? tools : tools.filter((tool) => names.includes(tool.function.name));
  return { tools: allowed, tool_choice: mode === 'ANY' ? 'required' : 'auto' };
}

/**
 * Everything of a native request but its contents as chat options: generation settings,
 * tools and the tool choice. `cachedContent` (a native cache id) is a 400; `safetySettings`
 * are left out, chat completions having no such field: the family on the other side applies
 * its own moderation.
 */
export function toChatOptions(request: NativeGenerateRequest): ChatOptions {
  if (request.cachedContent !== undefined) throw fieldError('cachedContent', 'a native context cache cannot be used through chat completions; send its contents in contents instead');
  return { ...generationOptions(request.generationConfig), ...toolChoice(request.toolConfig, chatTools(request.tools)) };
}
