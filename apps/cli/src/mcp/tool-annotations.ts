type ToolDefinitionRisk = 'read_only' | 'workspace_mutation' | 'process_execution';

/** MCP tool annotations (hints for the client's UI and approval policy). */
export interface McpToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/**
 * The annotations of a tool from its risk hint (§2 `ToolRisk`): reading is read-only, idempotent
 * and closed-world; changing the workspace may overwrite what was there; running a process may do
 * anything a command can, network included, so it is destructive and open-world.
 */
export function toolAnnotations(riskHint: ToolDefinitionRisk | (string & {})): McpToolAnnotations {
  switch (riskHint) {
    case 'read_only':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'workspace_mutation':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    default:
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

