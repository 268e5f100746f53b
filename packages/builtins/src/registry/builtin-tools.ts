import type { SandboxPolicy } from '@openwork/sandbox';
import type { Tool, ToolInputSchema } from '@openwork/tools-contract';
import { bashInputTool } from '../bash/background/bash-input-tool.js';
import { bashKillTool } from '../bash/background/bash-kill-tool.js';
import { bashOutputTool } from '../bash/background/bash-output-tool.js';
import { bashTool } from '../bash/bash-tool.js';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { editTool } from '../edit/edit-tool.js';
import { listTool } from '../list/list-tool.js';
import { readTool } from '../read/read-tool.js';
import { globTool } from '../search/glob-tool.js';
import { grepTool } from '../search/grep-tool.js';
import { writeTool } from '../write/write-tool.js';

/** A built-in tool: bound to a `ToolSessionContext`, stamped with a `SandboxPolicy` per call. */
export type BuiltinTool = Tool<ToolInputSchema, ToolSessionContext, SandboxPolicy>;

/**
 * THE list of built-in tools, in the fixed order `builtinRegistry()` registers them (§3; the
 * spec's order read write edit grep glob list bash), then the background tools bash_output, bash_input and bash_kill.
 */
export function builtinTools(): readonly BuiltinTool[] {
  return [readTool, writeTool, editTool, grepTool, globTool, listTool, bashTool, bashOutputTool, bashInputTool, bashKillTool] as unknown as readonly BuiltinTool[];
}
