import { pcmMimeType, tinyPcmBase64, tinyPngBase64 } from './sample-media.js';

type JsonObject = Record<string, unknown>;

/** A gx content part as the fake writes it. */
export interface GxPart {
  text?: string;
  thought?: boolean;
  inlineData?: { mimeType: string; data: string };
  functionCall?: { name: string; args: JsonObject };
  thoughtSignature?: string;
}

/** The fake's answer to one generate request, in both shapes. */
export interface GxAnswer {
  /** The stream's events, in order: each a full GenerateContentResponse fragment. */
  chunks: JsonObject[];
  /** The same answer as one non-stream response. */
  response: JsonObject;
}

interface Step {
  /** Undefined for the role-only closing chunk of image streams. */
  parts: GxPart[] | undefined;
  tokens: number;
  modality?: 'IMAGE' | 'AUDIO';
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isObject) : []);

/** About four characters a token; zero for empty text, as gx omits zero counts. */
const countTokens = (text: string): number => (text === '' ? 0 : Math.max(1, Math.ceil(text.length / 4)));

/**
 * Tokens gx counts for one image in a prompt: 258 for an image up to 384 px a side (the
 * fake's references are small). Reported under modality IMAGE in `promptTokensDetails`.
 */
export const promptImageTokens = 258;

/** How the fake refuses a generate request instead of answering it; see {@link answerGenerateContent}. */
export interface GxRefusal {
  /** Block the prompt with this `promptFeedback.blockReason` (`SAFETY`, `PROHIBITED_CONTENT`, `OTHER`…): no candidates. */
  blockPrompt?: string;
  /** An image answer finishes with this reason (`IMAGE_SAFETY`, `NO_IMAGE`…) and without its image part. */
  withholdImage?: string;
  /** Answer with neither candidates nor promptFeedback: usage only. */
  noCandidates?: boolean;
  /**
   * The model stops with this `finishReason` (`SAFETY`, `PROHIBITED_CONTENT`, `RECITATION`…)
   * before any content: one candidate without parts, with the safety ratings that stopped it
   * (upstreams.md §1.3). Usage counts the prompt only.
   */
  stopForSafety?: string;
}

/** Plausible, deterministic base64; gx signatures are opaque to clients. */
export const fakeThoughtSignature = (about: string): string => Buffer.from(`gx-fake-signature:${about}`).toString('base64');

/**
 * The deterministic default answer of the fake gx upstream:
 * - text: `echo: <last user text>`, streamed one word per event; after a function
 *   response turn, `<name> returned <response JSON>`;
 * - with `thinkingConfig` (budget not 0) the model "thinks": `thoughtsTokenCount` on
 *   every chunk, and with `includeThoughts` a thought part comes first, in its own event;
 * - `call <name> {json args}` in the last user text, with `<name>` declared, answers with
 *   a functionCall part carrying a thoughtSignature (several calls give parallel parts);
 *   mode ANY calls the first allowed function anyway, mode NONE never calls;
 * - responseModalities IMAGE: optional text, then a PNG part, then a role-only closing
 *   chunk (fixture gemini-stream-image-output.json); AUDIO: one L16 PCM part;
 * - inline images in the prompt count {@link promptImageTokens} each, as IMAGE prompt tokens;
 * - a {@link GxRefusal} blocks the prompt, withholds the image, stops the candidate for
 *   safety before any content, or answers no candidate;
 * - a `gxSearch` tool adds groundingMetadata to the last chunk;
 * - model ids starting `gx-3` close like Gemini 3: a final event with an empty text part
 *   (fixture gemini3-stream-function-call-thought-signature.sse).
 */
export function answerGenerateContent(model: string, body: unknown, responseId: string, refusal: GxRefusal = {}): GxAnswer {
  const request = isObject(body) ? body : {};
  const contents = objects(request.contents);
  const generationConfig = isObject(request.generationConfig) ? request.generationConfig : {};
  const thinkingConfig = isObject(generationConfig.thinkingConfig) ? generationConfig.thinkingConfig : undefined;
  const modalities = Array.isArray(generationConfig.responseModalities)
    ? generationConfig.responseModalities.map((modality) => String(modality).toUpperCase())
    : [];
  const tools = objects(request.tools);
  const secondGeneration = !model.startsWith('gx-3');

  const lastTurn = [...contents].reverse().find((content) => content.role !== 'model');
  const lastParts = objects(lastTurn?.parts);
  const lastText = lastParts
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text as string)
    .join('');
  const functionResponses = lastParts.map((part) => part.functionResponse).filter(isObject);
  const systemParts = isObject(request.systemInstruction) ? objects(request.systemInstruction.parts) : [];
  const promptParts = [...systemParts, ...contents.flatMap((content) => objects(content.parts))];
  const promptImages = promptParts.filter(isInlineImage).length;
  const promptText = promptParts
    .filter((part) => !isInlineImage(part))
    .map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part)))
    .join(' ');
  const prompt = promptUsage(promptText, promptImages);
  if (refusal.blockPrompt !== undefined || refusal.noCandidates === true) return candidatelessAnswer(model, responseId, prompt, refusal.blockPrompt);
  if (refusal.stopForSafety !== undefined) return stoppedAnswer(model, responseId, prompt, refusal.stopForSafety);

  const thinking = thinkingConfig !== undefined && thinkingConfig.thinkingBudget !== 0;
  const thoughtText = `**Reading the request**\n\nThe user wrote "${lastText}". An echo answers it.\n`;
  const steps: Step[] = [];
  if (thinking && thinkingConfig.includeThoughts === true) steps.push({ parts: [{ text: thoughtText, thought: true }], tokens: 0 });

  let finishMessage: string | undefined;
  let finishReason = 'STOP';
  const calls = functionResponses.length > 0 ? [] : requestedCalls(lastText, tools, request.toolConfig);
  if (calls.length > 0) {
    steps.push({ parts: calls, tokens: countTokens(JSON.stringify(calls.map((call) => call.functionCall))) });
    // Seen on a Gemini 2.5 function-call turn (louter streaming_function_calling capture).
    if (secondGeneration) finishMessage = 'Model generated function call(s).';
    else steps.push({ parts: [{ text: '' }], tokens: 0 });
  } else if (modalities.includes('AUDIO')) {
    steps.push({ parts: [{ inlineData: { mimeType: pcmMimeType, data: tinyPcmBase64 } }], tokens: 2, modality: 'AUDIO' });
  } else if (modalities.includes('IMAGE')) {
    if (modalities.includes('TEXT')) steps.push(...textSteps(`image: ${lastText}`));
    if (refusal.withholdImage === undefined) {
      steps.push({ parts: [{ inlineData: { mimeType: 'image/png', data: tinyPngBase64 } }], tokens: 1290, modality: 'IMAGE' });
    } else {
      finishReason = refusal.withholdImage;
      finishMessage = withheldImageMessages[refusal.withholdImage];
    }
    steps.push({ parts: undefined, tokens: 0 });
  } else {
    const reply =
      functionResponses.length > 0
        ? functionResponses.map((response) => `${String(response.name)} returned ${JSON.stringify(response.response ?? {})}`).join('\n')
        : `echo: ${lastText}`;
    steps.push(...textSteps(reply));
    if (!secondGeneration) steps.push({ parts: [{ text: '', thoughtSignature: fakeThoughtSignature('text') }], tokens: 0 });
  }

  const grounding = tools.some((tool) => 'gxSearch' in tool) ? groundingFor(lastText) : undefined;
  const thoughtsTokens = thinking ? countTokens(thoughtText) : 0;
  const details = new Map<string, number>();
  let candidatesTokens = 0;

  const chunks = steps.map((step, index) => {
    candidatesTokens += step.tokens;
    if (step.modality !== undefined) details.set(step.modality, (details.get(step.modality) ?? 0) + step.tokens);
    const last = index === steps.length - 1;
    const candidate: JsonObject = { content: step.parts === undefined ? { role: 'model' } : { parts: step.parts, role: 'model' } };
    if (last) candidate.finishReason = finishReason;
    candidate.index = 0;
    if (last && finishMessage !== undefined) candidate.finishMessage = finishMessage;
    if (last && grounding !== undefined) candidate.groundingMetadata = grounding;
    return {
      candidates: [candidate],
      usageMetadata: usage(prompt, candidatesTokens, thoughtsTokens, details),
      modelVersion: model,
      responseId,
    };
  });

  const finalCandidate = (chunks.at(-1)?.candidates[0] ?? {}) as JsonObject;
  const parts = mergeParts(steps.flatMap((step) => step.parts ?? []));
  return {
    chunks,
    response: {
      candidates: [{ ...finalCandidate, content: parts.length > 0 ? { parts, role: 'model' } : { role: 'model' } }],
      usageMetadata: chunks.at(-1)?.usageMetadata,
      modelVersion: model,
      responseId,
    },
  };
}

/** One event per word, each carrying only its new text (with the space before it). */
function textSteps(text: string): Step[] {
  const words = text.match(/\s*\S+\s*$|\s*\S+/g) ?? [text];
  return words.map((word) => ({ parts: [{ text: word }], tokens: countTokens(word) }));
}

function requestedCalls(text: string, tools: JsonObject[], toolConfig: unknown): GxPart[] {
  const declared = tools.flatMap((tool) => objects(tool.functionDeclarations)).map((declaration) => String(declaration.name));
  const callingConfig = isObject(toolConfig) && isObject(toolConfig.functionCallingConfig) ? toolConfig.functionCallingConfig : {};
  const allowed = Array.isArray(callingConfig.allowedFunctionNames) ? callingConfig.allowedFunctionNames.map(String) : declared;
  if (declared.length === 0 || callingConfig.mode === 'NONE') return [];
  const calls: GxPart[] = [];
  for (const match of text.matchAll(/\bcall\s+([A-Za-z_][\w.-]*)/g)) {
    const name = match[1]!;
    if (!declared.includes(name)) continue;
    const args = leadingJsonObject(text.slice(match.index + match[0].length)) ?? {};
    calls.push({ functionCall: { name, args } });
  }
  const fallback = allowed.find((name) => declared.includes(name));
  if (calls.length === 0 && callingConfig.mode === 'ANY' && fallback !== undefined) calls.push({ functionCall: { name: fallback, args: {} } });
  // The signature rides on the first functionCall part only (upstreams.md §1.4).
  if (calls[0] !== undefined) calls[0].thoughtSignature = fakeThoughtSignature(calls[0].functionCall!.name);
  return calls;
}

/** The JSON object that `text` starts with (after spaces), if any. */
function leadingJsonObject(text: string): JsonObject | undefined {
  const start = text.search(/\S/);
  if (start === -1 || text[start] !== '{') return undefined;
  for (let end = text.indexOf('}', start); end !== -1; end = text.indexOf('}', end + 1)) {
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (isObject(value)) return value;
    } catch {
      // Not yet a whole object; try the next closing brace.
    }
  }
  return undefined;
}

const isInlineImage = (part: JsonObject): boolean =>
  isObject(part.inlineData) && typeof part.inlineData.mimeType === 'string' && part.inlineData.mimeType.toLowerCase().startsWith('image/');

/** Prompt tokens by modality: text at about four characters a token (at least 1 when there is nothing else), images at a fixed count. */
interface PromptUsage {
  text: number;
  image: number;
}

function promptUsage(text: string, images: number): PromptUsage {
  const image = images * promptImageTokens;
  const textTokens = countTokens(text);
  return { text: textTokens === 0 && image === 0 ? 1 : textTokens, image };
}

// Guessed wording (upstreams.md records no withheld-image answer); clients must not rely on it.
const withheldImageMessages: Record<string, string> = {
  IMAGE_SAFETY: 'Unable to show the generated image: it was filtered out by the safety policy.',
  IMAGE_PROHIBITED_CONTENT: 'Unable to show the generated image: it was filtered out by the prohibited use policy.',
};

/**
 * An answer without candidates: a blocked prompt (`promptFeedback.blockReason`, upstreams.md
 * §1.3) or, without a reason, nothing at all. Usage counts the prompt only.
 */
function candidatelessAnswer(model: string, responseId: string, prompt: PromptUsage, blockReason: string | undefined): GxAnswer {
  const response: JsonObject = {};
  if (blockReason !== undefined) {
    response.promptFeedback =
      blockReason === 'SAFETY'
        ? { blockReason, safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }
        : { blockReason };
  }
  response.usageMetadata = usage(prompt, 0, 0, new Map());
  response.modelVersion = model;
  response.responseId = responseId;
  return { chunks: [response], response };
}

/**
 * A candidate the upstream's filters stopped before it had any content: its `finishReason`,
 * no `content` parts, and its safety ratings (the category that stopped it rated HIGH and
 * blocked), as one event when streamed. Usage counts the prompt only.
 */
function stoppedAnswer(model: string, responseId: string, prompt: PromptUsage, finishReason: string): GxAnswer {
  const safetyRatings = [
    { category: 'HARM_CATEGORY_SEXUALLY_EXPLICIT', probability: 'NEGLIGIBLE' },
    { category: 'HARM_CATEGORY_HATE_SPEECH', probability: 'NEGLIGIBLE' },
    { category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' },
    { category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', ...(finishReason === 'SAFETY' ? { blocked: true } : {}) },
  ];
  const response: JsonObject = {
    candidates: [{ finishReason, index: 0, safetyRatings }],
    usageMetadata: usage(prompt, 0, 0, new Map()),
    modelVersion: model,
    responseId,
  };
  return { chunks: [response], response };
}

function usage(prompt: PromptUsage, candidatesTokens: number, thoughtsTokens: number, details: Map<string, number>): JsonObject {
  // Field order and zero omission follow the raw captures in fixtures/gx (proto3 JSON drops zeros).
  const promptTokens = prompt.text + prompt.image;
  const result: JsonObject = { promptTokenCount: promptTokens };
  if (candidatesTokens > 0) result.candidatesTokenCount = candidatesTokens;
  result.totalTokenCount = promptTokens + candidatesTokens + thoughtsTokens;
  const promptDetails = [];
  if (prompt.text > 0) promptDetails.push({ modality: 'TEXT', tokenCount: prompt.text });
  if (prompt.image > 0) promptDetails.push({ modality: 'IMAGE', tokenCount: prompt.image });
  result.promptTokensDetails = promptDetails;
  if (details.size > 0) result.candidatesTokensDetails = [...details].map(([modality, tokenCount]) => ({ modality, tokenCount }));
  if (thoughtsTokens > 0) result.thoughtsTokenCount = thoughtsTokens;
  return result;
}

/** Adjacent text parts of the same kind join into one, as in a non-stream response. */
function mergeParts(parts: GxPart[]): GxPart[] {
  const merged: GxPart[] = [];
  for (const part of parts) {
    const previous = merged.at(-1);
    if (
      previous !== undefined &&
      previous.text !== undefined &&
      part.text !== undefined &&
      previous.thoughtSignature === undefined &&
      (previous.thought === true) === (part.thought === true)
    ) {
      previous.text += part.text;
      if (part.thoughtSignature !== undefined) previous.thoughtSignature = part.thoughtSignature;
    } else {
      merged.push({ ...part });
    }
  }
  return merged;
}

function groundingFor(query: string): JsonObject {
  return {
    searchEntryPoint: { renderedContent: '<div class="container">search suggestions</div>' },
    groundingChunks: [{ web: { uri: 'https://grounding.invalid/redirect/0', title: 'example.com' } }],
    groundingSupports: [
      {
        segment: { startIndex: 0, endIndex: 4, text: 'echo' },
        groundingChunkIndices: [0],
        confidenceScores: [0.9],
      },
    ],
    webSearchQueries: [query],
  };
}
