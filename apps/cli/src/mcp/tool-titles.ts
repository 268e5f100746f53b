/**
 * MCP tool titles (issue 29): what a client shows a person instead of the bare id. A tool this
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
  conversation_history: 'Search this conversation',
};

export function toolTitle(id: string): string {
  return TITLES[id] ?? id;
}
