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
export function toolAnnotations(riskHint: ToolDefinitionRisk | (string & {}), toolId?: string): McpToolAnnotations {
  const own = toolId === undefined ? undefined : BACKGROUND_TOOL_ANNOTATIONS[toolId];
  if (own !== undefined) return own;
  switch (riskHint) {
    case 'read_only':
      return { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    case 'workspace_mutation':
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
    default:
      return { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  }
}

/**
 * The background bash tools, whose risk hint says less than their effect: `bash_output` changes nothing but
 * takes the output it returns (a second call returns what came after), so it is not idempotent;
 * `bash_kill` ends processes of this session only and ending them twice is the same, so it is
 * destructive, idempotent and closed-world; `bash_input` types into a program, which may do
 * anything a command can (its risk hint's annotations, the default).
 */
const BACKGROUND_TOOL_ANNOTATIONS: Readonly<Record<string, McpToolAnnotations>> = {
  bash_output: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  bash_kill: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

/**
 * The annotations as `tools/list` sends them: the MCP defaults (`readOnlyHint: false`,
 * `destructiveHint: true`, `idempotentHint: false`, `openWorldHint: true`) and the hints the spec
 * calls meaningless for a read-only tool (`destructiveHint`, `idempotentHint`) are left out — the
 * same meaning in fewer bytes of a list every client fetches. `readOnlyHint: true` is always sent.
 */
export function listedToolAnnotations(annotations: McpToolAnnotations): Partial<McpToolAnnotations> {
  if (annotations.readOnlyHint) return { readOnlyHint: true, openWorldHint: annotations.openWorldHint };
  return {
    ...(annotations.destructiveHint ? {} : { destructiveHint: false }),
    ...(annotations.idempotentHint ? { idempotentHint: true } : {}),
    ...(annotations.openWorldHint ? {} : { openWorldHint: false }),
  };
}
