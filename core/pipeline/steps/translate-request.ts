import type { TranslatedRequest, Translator } from '../../contracts/translator.js';
import type { Channel } from '../../routing/channel.js';
import { isPipelineOperation, type PipelineOperation } from '../operation-invocation.js';
import type { RequestContext, RequestTranslations } from '../request-context.js';

/** The operation to call on a channel, the request its provider receives, and the translator between them and the client, if any. */
export interface ChannelRequest {
  operation: PipelineOperation;
  request: unknown;
  /** Set when the channel's provider does not implement the client's operation and this translator serves it there. */
  translator: Translator | undefined;
}

/**
 * Translate: the client's own operation when `channel`'s provider implements it (the fast
 * path: nothing is translated or allocated), else the translator routing chose for the channel
 * (`Channel.translatorFor`), which turns the client's request into one of an operation the
 * provider implements. Either way the plugin's `prepare` then runs on what the provider gets,
 * once per plugin and operation. A translator's refusal (`invalidRequest`, naming the client's
 * field) is thrown, as a `prepare`'s is: for the first channel, before any quota is touched.
 */
export function translateRequest(context: RequestContext, channel: Channel): ChannelRequest {
  const translator = channel.translatorFor(context.operation);
  if (translator === undefined) return { operation: context.operation, request: context.prepared.of(channel), translator };
  const translated = translatedRequest(context, translator);
  return { operation: translated.operation, request: context.prepared.ofServed(channel, translated.operation, translated.request), translator };
}

/** What `translator` makes of the client's request, once per request: every channel it serves gets the same. */
function translatedRequest(context: RequestContext, translator: Translator): TranslatedRequest<PipelineOperation> {
  const translations = (context.translations ??= startTranslations(context));
  let translated = translations.requests.get(translator);
  if (translated === undefined) {
    translated = translator.request(translatorRequestOf(context) as never, translations.context);
    // The loader checked the operations it declares; what it returns is checked here, once.
    if (!translator.served.includes(translated.operation) || !isPipelineOperation(translated.operation)) {
      throw new Error(`translator ${translator.name} answered a request for ${String(translated.operation)}, which is not among the operations it serves (${translator.served.join(', ')})`);
    }
    translations.requests.set(translator, translated);
  }
  return translated as TranslatedRequest<PipelineOperation>;
}

function startTranslations(context: RequestContext): RequestTranslations {
  const { invocation } = context;
  return {
    context: { model: context.model, requestId: invocation.requestId, createdSeconds: Math.floor(context.timings.startedAt / 1000), stream: invocation.stream },
    requests: new Map(),
  };
}

/** What translators translate: set by `expandConversation` before any translated channel is tried. */
export function translatorRequestOf(context: RequestContext): unknown {
  if (context.translatorRequest === undefined) throw new Error('a request is translated only after its conversation was expanded');
  return context.translatorRequest;
}
