import type { Approver } from '../call/approval.js';
import type { LanguageModel } from '../model/language-model.js';

/** Default of `TurnOptions.maxSteps`. */
export const DEFAULT_MAX_STEPS = 50;

/** One turn: the user's message, the model to answer it, and who approves calls. */
export interface TurnOptions {
  /** What the user says. */
  readonly input: string;
  readonly model: LanguageModel;
  /** Asks the user about escalations and dangerous commands; default the runtime's `approver`. Without one, such calls are denied. */
  readonly approver?: Approver;
  /** Cancels the turn: the model stops, the running call is cancelled (§5), the turn ends `cancelled`. */
  readonly signal?: AbortSignal;
  /** The system prompt, passed to the model as `LanguageModelRequest.instructions`. */
  readonly instructions?: string;
  /** At most this many requests to the model in this turn; default 50. */
  readonly maxSteps?: number;
}
