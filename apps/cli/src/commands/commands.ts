import type { CommandSpec } from '../cli/command-spec.js';
import { callCommand } from './call-command.js';
import { changesCommand } from './changes-command.js';
import { doctorCommand } from './doctor-command.js';
import { mcpCommand } from './mcp-command.js';
import { reapplyCommand, undoCommand } from './move-file-changes-command.js';
import { sessionCommand } from './session-command.js';
import { toolsCommand } from './tools-command.js';
import { uiCommand } from './ui-command.js';

/** Every `openwork` command, in the order of the help (architecture §7). */
export const COMMANDS: readonly CommandSpec[] = [
  toolsCommand,
  callCommand,
  sessionCommand,
  mcpCommand,
  changesCommand,
  undoCommand,
  reapplyCommand,
  uiCommand,
  doctorCommand,
];
