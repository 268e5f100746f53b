/**
 * The sandbox mode a session runs in (architecture §3.1). Kept as the same strings as
 * `@openwork/sandbox`'s modes; this package does not depend on the sandbox.
 */
export type SessionMode = 'read-only' | 'workspace-write' | 'full-access';

/** Every `SessionMode`; `workspace-write` is the default. */
export const SESSION_MODES: readonly SessionMode[] = Object.freeze(['read-only', 'workspace-write', 'full-access']);
