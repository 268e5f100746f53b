/**
 * A hint about what a tool may do (§2). Hosts show it to users; core does NOT make permission
 * decisions from it — those come from `CallInspection` and the sandbox policy.
 */
export type ToolRisk = 'read_only' | 'workspace_mutation' | 'process_execution';

/** Every `ToolRisk`, for runtime validation of tools written in plain JavaScript. */
export const TOOL_RISKS: readonly ToolRisk[] = Object.freeze(['read_only', 'workspace_mutation', 'process_execution']);
