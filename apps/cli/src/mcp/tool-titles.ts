/**
 * MCP tool titles (MCP clients): what a client shows a person instead of the bare id. A tool this
 * table does not know (a host's own) is titled by its id.
 */
const TITLES: Readonly<Record<string, string>> = {
  read: 'Read file',
  write: 'Write file',
  edit: 'Edit file',
  list: 'List folder',
  grep: 'Search file contents',
  glob: 'Find files by name',
  bash: 'Run shell command (sandboxed)',
  bash_output: 'Read a background command\'s output',
  bash_input: 'Type into a background command',
  bash_kill: 'Stop a background command',
  conversation_history: 'Search this conversation',
  update_plan: 'Update the plan',
  agent_send: 'Start or message child agents',
  agent_await: 'Wait for child agents',
  agent_list: 'List child agents',
};

export function toolTitle(id: string): string {
  return TITLES[id] ?? id;
}
