import { invalidRequest } from '../../core/index.js';
import { quoted } from '../../core/kit/index.js';

/** A `functionCall` of a model turn, with the chat tool-call id it travels under. */
interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * Pairs native function calls with their responses under chat tool-call ids, which the chat
 * format requires and older native requests do not carry (upstreams.md §1.5: the id "usually"
 * is absent):
 * - a `functionCall` keeps its `id` when it has one (this translator's answers give every call
 *   the chat id, and Gemini CLI sends it back); one without gets `call_<content>_<part>`, its
 *   place in `contents` (`call_1_0`), which is the same on every request that replays the
 *   conversation;
 * - a `functionResponse` answers the call of the latest model turn whose id it names, else the
 *   first call of that turn with its `name` not yet answered, in order: Gemini CLI writes ids
 *   of its own into responses to calls that came without one.
 */
export class NativeFunctionCalls {
  private pending: PendingCall[] = [];

  /** A model turn begins: responses after it answer its calls only. */
  startModelTurn(): void {
    this.pending = [];
  }

  /** The chat id of the `functionCall` at `contents[content].parts[part]`. */
  call(name: string, id: unknown, content: number, part: number): string {
    const callId = typeof id === 'string' && id !== '' ? id : `call_${content}_${part}`;
    this.pending.push({ id: callId, name, answered: false });
    return callId;
  }

  /**
   * The chat id of the call a `functionResponse` answers.
   * @throws a 400 naming `field` when no call of the latest model turn is left for it.
   */
  response(name: string, id: unknown, field: string): string {
    const byId = typeof id === 'string' ? this.pending.find((call) => call.id === id) : undefined;
    const call = byId ?? this.pending.find((candidate) => !candidate.answered && candidate.name === name);
    if (call === undefined) {
      throw invalidRequest(
        `${field}: no functionCall named ${quoted(name)} in the model turn before it is left unanswered; send the model turn with the call first, and one response per call`,
        { param: field },
      );
    }
    call.answered = true;
    return call.id;
  }
}
