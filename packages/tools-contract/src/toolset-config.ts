import type { ToolId } from './tool-id.js';

/**
 * The tools an agent may use (§3), in the order their definitions are shown to the model
 * (acceptance 5), e.g. `{ tools: ['read', 'grep', 'glob', 'list', 'bash'] }` for an explorer.
 */
export interface ToolsetConfig {
  readonly tools: readonly ToolId[];
}
