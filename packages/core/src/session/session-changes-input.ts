import type { SessionMode } from '@openwork/session-store';
import type { AgentRole } from './agent-role.js';

/** What `Session.update` may change; omitted fields keep their value. */
export interface SessionChangesInput {
  readonly mode?: SessionMode;
  readonly role?: AgentRole;
  /** Absolute paths of folders; the first is the working directory. */
  readonly workspaceRoots?: readonly string[];
}
