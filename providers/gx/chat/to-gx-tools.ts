import { invalidRequest, type ChatCompletionRequest } from '../../../core/index.js';
import { cleanGxSchema, isEmptyObjectSchema } from './clean-gx-schema.js';

/** Function names that switch on a native tool instead of declaring a function (spec part 1). */
const nativeTools = new Set(['gxSearch', 'codeExecution', 'urlContext']);

/** The native `tools` and `toolConfig` of a request; each undefined when there is nothing to send. */
export interface GxTools {
  tools: Record<string, unknown>[] | undefined;
  toolConfig: Record<string, unknown> | undefined;
}

const modes: Record<string, string> = { auto: 'AUTO', none: 'NONE', required: 'ANY' };

/**
 * Maps chat `tools` and `tool_choice` (spec part 1, reference-gateway.md §4.4): functions
 * go into one `functionDeclarations` entry (parameters reduced to the native schema, left
 * out when they declare no properties); `gxSearch`, `codeExecution` and `urlContext` each
 * become their own native tool entry `{name: {}}`, once. `tool_choice` `auto`/`none`/
 * `required` become mode AUTO/NONE/ANY, a named function ANY with `allowedFunctionNames`.
 * A `toolConfig` is only sent alongside declared functions: the upstream rejects a calling
 * mode without them, and a native tool cannot be forced. Naming a function that `tools`
 * lacks is a 400.
 */
export function toGxTools(tools: ChatCompletionRequest['tools'], toolChoice: ChatCompletionRequest['tool_choice']): GxTools {
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

  let toolConfig: Record<string, unknown> | undefined;
  if (typeof toolChoice === 'string') {
    if (declarations.length > 0) toolConfig = { functionCallingConfig: { mode: modes[toolChoice] ?? 'AUTO' } };
  } else if (toolChoice !== undefined && toolChoice !== null) {
    const name = toolChoice.function.name;
    if (declarations.some((declaration) => declaration.name === name)) {
      toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
    } else if (!nativeTools.has(name)) {
      throw invalidRequest(`tool_choice.function.name: "${name}" is not one of the functions in tools`, { param: 'tool_choice.function.name' });
    }
  }
  return { tools: entries.length > 0 ? entries : undefined, toolConfig };
}
