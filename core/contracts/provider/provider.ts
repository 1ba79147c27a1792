import type { Usage } from '../usage.js';
import type { OperationRequests } from '../operation-requests.js';
import type { OperationResults } from '../operation-results.js';
import type { OperationName } from './operation-call.js';
import type { OperationHandler } from './operation-results.js';

/**
 * What a plugin's `prepare` makes of each operation's client request, by operation: a
 * checked, normalized plan. An operation left out receives the client request itself.
 */
export type PreparedRequests = { [Name in OperationName]?: unknown };

/** What an operation's estimate and handler receive: its prepared request, or the validated client request when the plugin prepares none. */
export type RequestOf<Prepared extends PreparedRequests, Name extends OperationName> = Name extends keyof Prepared
  ? Exclude<Prepared[Name], undefined>
  : OperationRequests[Name];

/** What a provider instance offers: a handler per operation it implements, answering that operation's kind of result. */
export interface Provider<Options = unknown, Prepared extends PreparedRequests = {}> {
  operations: { [Name in OperationName]?: OperationHandler<RequestOf<Prepared, Name>, Options, OperationResults[Name]> };
  /**
   * The usage to reserve quota by before calling an operation, when only the family knows it
   * (a video's seconds and resolution live in family-specific fields). Without one, the
   * route's estimate is used. A version 1 plugin also refuses here (a 400) a request the
   * family cannot accept; a version 2 plugin does that in `prepare`.
   */
  estimate?: { [Name in OperationName]?: (request: RequestOf<Prepared, Name>) => Usage };
  /**
   * Operations the family offers but this channel's options leave out, each with what the
   * operator must set to enable it (`"options.assets (the asset API's address and keys)"`).
   * A request that only such a channel could serve answers 501 naming the channel and this
   * text, instead of "no channel serves the model", which would send the operator looking in
   * the wrong place.
   */
  unavailable?: { [Name in OperationName]?: string };
  /** Called once when the gateway stops. */
  close?(): Promise<void>;
}
