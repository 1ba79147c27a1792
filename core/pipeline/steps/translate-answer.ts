import type { JsonResult, StreamResult } from '../../contracts/provider/operation-results.js';
import type { Usage } from '../../contracts/usage.js';
import { malformedUpstreamAnswer } from '../../errors/error-codes.js';
import { translatedDecoder } from '../../streaming/translated-decoder.js';
import type { RequestContext } from '../request-context.js';
import { translatorRequestOf, type ChannelRequest } from './translate-request.js';

/** A translated channel's request: its translator is set. */
type Translated = ChannelRequest & { translator: NonNullable<ChannelRequest['translator']> };

/**
 * Translate back, JSON: the served answer in the client's format, its usage fields written
 * from `usage`, the usage the request is billed by (the served operation's, exactly). A body
 * the provider answered as JSON text is parsed first; one that is not JSON is the channel's
 * malformed answer.
 */
export function translatedBody(context: RequestContext, translated: Translated, result: JsonResult, usage: Usage): unknown {
  const { translator, operation } = translated;
  let body = result.body;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch (cause) {
      throw malformedUpstreamAnswer(`the upstream's answer to ${operation} is not JSON, so it cannot be given in the format of ${context.operation}`, { cause });
    }
  }
  return translator.answer(body, usage, operation, translationContext(context), translatorRequestOf(context) as never);
}

/** Translate back, a stream: the provider's decoder with a fresh translation of this stream stacked on it (see `translatedDecoder`). */
export function translatedStream(context: RequestContext, translated: Translated, result: StreamResult): StreamResult {
  const { translator } = translated;
  // Only a translator whose client operation never streams leaves stream() out, and its served operations answer JSON.
  if (translator.stream === undefined) throw new Error(`translator ${translator.name} has no stream translation, yet ${translated.operation} answered a stream`);
  const translation = translator.stream(translated.operation, translationContext(context), translatorRequestOf(context) as never);
  return { ...result, decoder: translatedDecoder(result.decoder, translation) };
}

function translationContext(context: RequestContext) {
  const translations = context.translations;
  if (translations === undefined) throw new Error('an answer is translated only after its request was');
  return translations.context;
}
