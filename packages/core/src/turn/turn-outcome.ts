import type { StoredMessage } from '@openwork/session-store';

/**
 * How a turn ended: `completed` (the model answered without calling tools), `cancelled` (its
 * signal aborted; the running call was cancelled, later calls did not run), `failed` (the model
 * or the store failed; `error` says why) or `max_steps` (the model kept calling tools for
 * `maxSteps` requests).
 */
export type TurnStatus = 'completed' | 'cancelled' | 'failed' | 'max_steps';

/** The end of a turn. */
export interface TurnOutcome {
  readonly turnId: string;
  readonly status: TurnStatus;
  /** Why a `failed` turn failed. */
  readonly error?: string;
  /** The text of the last assistant message of the turn ('' if none). */
  readonly text: string;
  /** Every message the turn stored, in order. */
  readonly messages: readonly StoredMessage[];
  /** How many requests went to the model. */
  readonly steps: number;
}
