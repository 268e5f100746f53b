import type { LanguageModel } from '../model/language-model.js';
import type { AgentRole } from '../session/agent-role.js';

/**
 * Where child agents get their model (architecture §4): the host maps a role to a model. Without
 * one, a runtime offers no sub-agent tools.
 */
export type AgentModelSource = (role: AgentRole) => LanguageModel;

/** Defaults of `SubAgentOptions`. */
export const SUB_AGENT_DEFAULTS = Object.freeze({
  maxRunning: 4,
  leaseMs: 30_000,
  maxSteps: 50,
  maxAttempts: 3,
});

/** How a runtime runs child agents. Every field is optional. */
export interface SubAgentOptions {
  /** At most this many children run at once in this runtime (default 4); the others wait `queued`. */
  readonly maxRunning?: number;
  /** Whether a child (depth 1) may delegate to grandchildren (depth 2). Default `false`; depth never exceeds 2. */
  readonly childrenMayDelegate?: boolean;
  /**
   * How long a host's hold on a run lasts without renewal (default 30 s, renewed every third of
   * it). After a host dies, another takes its runs once this has passed.
   */
  readonly leaseMs?: number;
  /** Model requests per child round (default 50). */
  readonly maxSteps?: number;
  /** A resumed round that has been taken up this many times (default 3) is marked `interrupted` instead of tried again. */
  readonly maxAttempts?: number;
  /** The system prompt of a child's turns, by role. */
  readonly instructions?: (role: AgentRole) => string | undefined;
  /** This runtime's id in leases (default a random UUID). Two live runtimes must never share one. */
  readonly hostId?: string;
}
