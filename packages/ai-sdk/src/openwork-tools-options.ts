import type { ToolProgress } from '@openwork/tools-contract';

/** How `openworkTools` exposes a session's tools to the AI SDK. */
export interface OpenworkToolsOptions {
  /**
   * Store each call and its result in the session (default `true`), so its file changes can be
   * undone through `session.undo` and reloaded after a restart.
   */
  readonly record?: boolean;
  /** Each call's progress with the SDK's tool call id (§8.3); `session.subscribe` gets it too. */
  readonly onProgress?: (toolCallId: string, progress: ToolProgress) => void;
}
