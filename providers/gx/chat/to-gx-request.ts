import type { ChatCompletionRequest, FetchedMedia } from '../../../core/index.js';
import type { GxRequest } from '../call-gx.js';
import { parseGxThinkingSuffix, readGxThinkingConfig, thinkingConfigForEffort, type GxThinkingConfig } from '../gx-thinking.js';
import { mergeGxPassthrough } from './merge-gx-passthrough.js';
import { splitMarkdownImages } from './split-markdown-images.js';
import { isRemoteMedia, mediaSourceOfPart, type MediaSource } from './to-gx-content-part.js';
import { toGxContents } from './to-gx-contents.js';
import { toGxGenerationConfig } from './to-gx-generation-config.js';
import { toGxTools } from './to-gx-tools.js';

/** What {@link toGxRequest} needs besides the client request. */
export interface GxRequestOptions {
  /** The model to ask the upstream for (after the channel's model map), thinking suffix included. */
  upstreamModel: string;
  /** Every URL {@link collectMediaReferences} listed, fetched, by URL. */
  media: ReadonlyMap<string, FetchedMedia>;
}

/**
 * Every http(s) URL the request's media parts (image_url, input_audio, file) and the
 * markdown images in user messages point at, once each, in order, with the field that first
 * gave it (`messages[2].content[1].image_url.url`, or the text a markdown image sits in) for
 * the `param` of a refusal. The caller fetches them (through the host's SSRF-guarded
 * fetcher, with `gxAllowedMimeTypes`) before calling {@link toGxRequest}; data URIs are
 * decoded there and need no fetch.
 */
export function collectMediaReferences(request: ChatCompletionRequest): MediaSource[] {
  const references = new Map<string, MediaSource>();
  const add = (source: string, field: string) => {
    if (isRemoteMedia(source) && !references.has(source)) references.set(source, { source, field });
  };
  const addMarkdownImages = (text: string, field: string) => {
    for (const segment of splitMarkdownImages(text, true)) {
      if (segment.kind === 'image') add(segment.source, field);
    }
  };
  request.messages.forEach((message, index) => {
    if (message.role !== 'user' && message.role !== 'assistant') return;
    const content = message.content;
    if (content === undefined || content === null) return;
    if (typeof content === 'string') {
      if (message.role === 'user') addMarkdownImages(content, `messages[${index}].content`);
      return;
    }
    content.forEach((part, partIndex) => {
      const field = `messages[${index}].content[${partIndex}]`;
      if (part.type === 'text') {
        if (message.role === 'user' && part.text !== undefined) addMarkdownImages(part.text, `${field}.text`);
        return;
      }
      const located = mediaSourceOfPart(part, field);
      if (located !== undefined) add(located.source, located.field);
    });
  });
  return [...references.values()];
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
 * Translates a chat completion request into the native generate request (spec part 1,
 * "POST /v1/chat/completions"): contents and system instruction from the messages,
 * generation settings, tools, thinking (from `extra_body.gx.thinking_config`, else the
 * model id's suffix, else `reasoning_effort`), then the rest of `extra_body.gx` deep-merged
 * over the result. Pure: media must already be in `options.media`.
 * @throws GatewayError 400 `invalid_request` naming the field, for input the upstream cannot take.
 */
export function toGxRequest(request: ChatCompletionRequest, options: GxRequestOptions): GxRequest {
  const suffix = parseGxThinkingSuffix(options.upstreamModel);
  const passthrough = request.extra_body?.gx;
  const { contents, systemInstruction } = toGxContents(request.messages, options.media);

  let body: Record<string, unknown> = { contents };
  if (systemInstruction !== undefined) body.systemInstruction = systemInstruction;
  const generationConfig = toGxGenerationConfig(request);
  const thinking = thinkingConfig(request, passthrough, suffix.thinkingConfig, suffix.model);
  if (thinking !== undefined) generationConfig.thinkingConfig = thinking;
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  const { tools, toolConfig } = toGxTools(request.tools, request.tool_choice);
  if (tools !== undefined) body.tools = tools;
  if (toolConfig !== undefined) body.toolConfig = toolConfig;

  if (passthrough !== undefined) {
    const { thinking_config: _thinkingConfig, ...nativeFields } = passthrough;
    body = mergeGxPassthrough(body, nativeFields);
  }
  return { model: suffix.model, body };
}
