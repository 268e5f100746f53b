import type { CommandSpec } from '../cli/command-spec.js';
import { callCommand } from './call-command.js';
import { mcpCommand } from './mcp-command.js';
import { toolsCommand } from './tools-command.js';

/** Every `openwork` command, in the order of the help. */
export const COMMANDS: readonly CommandSpec[] = [toolsCommand, callCommand, mcpCommand];
