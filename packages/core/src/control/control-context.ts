import type { NewSessionPlan, SessionPlan } from '@openwork/session-store';
import type { SessionAgents } from '../agents/session-agents.js';

/**
 * What core's control tools (spec §3: `update_plan`, the sub-agent tools) act on: the session
 * itself, never the file system or a process, so they run outside the sandbox.
 */
export interface ControlContext {
  readonly sessionId: string;
  /** Stores the plan and publishes `plan_updated`. */
  setPlan(plan: NewSessionPlan): Promise<SessionPlan>;
  /** The session's children; `undefined` when this session may not delegate. */
  readonly agents: SessionAgents | undefined;
}
