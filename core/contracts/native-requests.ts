import { z } from 'zod';

// The native surface is passed through faithfully: only what the gateway needs, or what is
// certainly wrong, is checked; every other field is forwarded as the client sent it.

const part = z.record(z.string(), z.unknown(), { error: 'expected a part object such as {"text": "..."}' });

const content = z.looseObject(
  {
    role: z.string({ error: 'expected "user" or "model"' }).optional(),
    parts: z.array(part, { error: 'expected an array of parts' }),
  },
  { error: 'expected a content object {role, parts}' },
);

/** `:generateContent` and `:streamGenerateContent`. */
export const nativeGenerateRequestSchema = z.looseObject(
  {
    contents: z.array(content, { error: 'contents is required: an array of {role, parts}' }).min(1, { error: 'contents must not be empty' }),
    generationConfig: z
      .looseObject(
        {
          temperature: z.number({ error: 'expected a number from 0 to 2' }).min(0, { error: 'expected at least 0' }).max(2, { error: 'expected at most 2' }).optional(),
          topP: z.number({ error: 'expected a number' }).optional(),
          topK: z.number({ error: 'expected a number' }).optional(),
          maxOutputTokens: z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' }).min(1, { error: 'expected at least 1' }).optional(),
          stopSequences: z.array(z.string(), { error: 'expected an array of strings' }).optional(),
          responseModalities: z.array(z.string(), { error: 'expected an array such as ["TEXT"]' }).optional(),
        },
        { error: 'expected an object' },
      )
      .optional(),
    systemInstruction: z.looseObject({ parts: z.array(part, { error: 'expected an array of parts' }) }, { error: 'expected {parts: [...]}' }).optional(),
    safetySettings: z.array(z.record(z.string(), z.unknown()), { error: 'expected an array of {category, threshold}' }).optional(),
    tools: z.array(z.record(z.string(), z.unknown()), { error: 'expected an array of tools' }).optional(),
    toolConfig: z.record(z.string(), z.unknown(), { error: 'expected an object' }).optional(),
    cachedContent: z.string({ error: 'expected a string' }).optional(),
  },
  { error: 'expected a JSON object' },
);

const embedContent = z.looseObject(
  {
    model: z.string({ error: 'expected a model name' }).optional(),
    content: z.looseObject({ parts: z.array(part, { error: 'expected an array of parts' }) }, { error: 'content is required: {parts: [{text}]}' }),
  },
  { error: 'expected a JSON object' },
);

/** `:embedContent`. */
export const nativeEmbedRequestSchema = embedContent;

/** `:batchEmbedContents`. */
export const nativeBatchEmbedRequestSchema = z.looseObject(
  {
    requests: z
      .array(embedContent, { error: 'requests is required: an array of {content: {parts}}' })
      .min(1, { error: 'requests must not be empty' })
      .max(250, { error: 'at most 250 requests' }),
  },
  { error: 'expected a JSON object' },
);

export type NativeGenerateRequest = z.output<typeof nativeGenerateRequestSchema>;
export type NativeEmbedRequest = z.output<typeof nativeEmbedRequestSchema>;
export type NativeBatchEmbedRequest = z.output<typeof nativeBatchEmbedRequestSchema>;
