import type { VoVideoPlan } from './read-vo-request.js';

/** A frame as the upstream takes it (upstreams.md §1.11, js-genai `imageToMldev`). */
export interface VoInlineImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

/** The body of `POST .../models/{model}:predictLongRunning`. */
export interface VoUpstreamRequest {
  instances: [{ prompt: string; image?: VoInlineImage; lastFrame?: VoInlineImage }];
  parameters: {
    aspectRatio: string;
    durationSeconds: number;
    resolution: string;
    sampleCount: number;
    negativePrompt?: string;
    personGeneration?: string;
  };
}

/**
 * The upstream body for a checked plan and its fetched frames, pure (upstreams.md §1.11):
 * one instance with the prompt and the frames, then the parameters the Gemini API takes, in
 * the order of fixture gemini-veo-operation.json. Length, ratio, resolution and count are
 * always sent, so what is made is what was billed.
 */
export function toVoRequest(plan: VoVideoPlan, frames: { image?: VoInlineImage; lastFrame?: VoInlineImage }): VoUpstreamRequest {
  return {
    instances: [
      {
        prompt: plan.prompt,
        ...(frames.image === undefined ? {} : { image: frames.image }),
        ...(frames.lastFrame === undefined ? {} : { lastFrame: frames.lastFrame }),
      },
    ],
    parameters: {
      aspectRatio: plan.aspectRatio,
      durationSeconds: plan.durationSeconds,
      resolution: plan.resolution,
      sampleCount: plan.sampleCount,
      ...(plan.negativePrompt === undefined ? {} : { negativePrompt: plan.negativePrompt }),
      ...(plan.personGeneration === undefined ? {} : { personGeneration: plan.personGeneration }),
    },
  };
}
