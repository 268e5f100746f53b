import type { SessionMode } from '@openwork/session-store';
import type { AgentRole } from './agent-role.js';

/** What `Runtime.createSession` needs. */
export interface NewSessionOptions {
  /** Your own id (1–200 printable characters); default a random UUID. */
  readonly id?: string;
  /** Absolute paths of existing folders; the first is the working directory (§6.2). */
  readonly workspaceRoots: readonly string[];
  /** Architecture §3.1; default `workspace-write`. */
  readonly mode?: SessionMode;
  /** §3; default `default`. */
  readonly role?: AgentRole;
}
