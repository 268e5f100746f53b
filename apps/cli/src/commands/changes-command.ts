import { DATABASE_OPTION, JSON_OPTION, SESSION_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { formatTable } from '../output/format-table.js';
import { colorDiff, colorsFor } from '../output/terminal-colors.js';
import { findChange, listStoredFileChanges, shortId } from '../runtime/find-file-changes.js';
import { openRuntime } from '../runtime/open-runtime.js';

/** `openwork changes [--session ID] [--diff ID]` (§8.4): the stored file changes. */
export const changesCommand: CommandSpec = {
  name: 'changes',
  summary: 'list stored file changes, or show one as a diff',
  usage: 'openwork changes [--session ID] [--diff CHANGE_ID] [--json]',
  details: [
    'A table of file changes (short change id, when, which tool, short session id, path, +/- lines,',
    'undone or applied), of one session or of all stored sessions; --diff shows one change as a',
    'unified diff from the stored record, coloured on a terminal (NO_COLOR / FORCE_COLOR apply).',
    'Any unique prefix of an id (the short ids shown) names it here and in undo / reapply.',
    '  --session ID      only this session',
    '  --diff ID         the diff of this change',
    '  --json            the stored records as JSON',
    '  --database URL    PostgreSQL store (default: OPENWORK_DATABASE_URL, else SQLite in the OpenWork home)',
  ],
  options: [SESSION_OPTION, { name: 'diff', kind: 'value' }, JSON_OPTION, DATABASE_OPTION],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork changes: unexpected argument ${JSON.stringify(parsed.positionals[0])}; see openwork changes --help`);
    const opened = await openRuntime({ environment: io.environment, database: optionValue(parsed, 'database') });
    try {
      const changes = await listStoredFileChanges(opened.runtime, optionValue(parsed, 'session'));
      const diffId = optionValue(parsed, 'diff');
      if (diffId !== undefined) {
        const change = findChange(changes, diffId);
        if (change === undefined || Array.isArray(change)) {
          const which = Array.isArray(change) ? `${JSON.stringify(diffId)} names ${change.length} changes; give more of the id` : `no stored change ${JSON.stringify(diffId)}`;
          io.stderr.write(`openwork changes: ${which}; openwork changes lists them\n`);
          return 1;
        }
        const { renderFileChange } = await import('@openwork/core');
        // §3.9: the path and lines come from the model; shown with hidden characters revealed.
        const diff = renderFileChange(change.artifact, { revealHiddenCharacters: true });
        io.stdout.write(`${colorDiff(diff.replace(/\n$/, ''), colorsFor(io.stdout as { isTTY?: boolean }, io.environment))}\n`);
        return 0;
      }
      if (parsed.flags.has('json')) {
        io.stdout.write(`${JSON.stringify(changes)}\n`);
        return 0;
      }
      if (changes.length === 0) {
        io.stdout.write('No file changes stored.\n');
        return 0;
      }
      const made = await whenAndHow(opened.runtime.store, changes);
      const { revealHiddenCharacters } = await import('@openwork/core'); // loaded on use (start-up)
      const rows = changes.map((change) => {
        const { displayPath, additions, deletions } = change.artifact.change as { displayPath?: unknown; additions?: unknown; deletions?: unknown };
        const { time, tool } = made.get(change.messageId) ?? { time: '', tool: '' };
        return [
          shortId(change.changeId),
          time,
          tool,
          shortId(change.sessionId),
          revealHiddenCharacters(String(displayPath ?? change.path)), // §3.9: a path from the model
          `+${String(additions)}`,
          `-${String(deletions)}`,
          change.undone ? 'undone' : 'applied',
        ];
      });
      io.stdout.write(`${formatTable(['CHANGE', 'TIME', 'TOOL', 'SESSION', 'PATH', '+', '-', 'STATE'], rows)}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};

type StoreOf = Awaited<ReturnType<typeof openRuntime>>['store'];

/**
 * When each change was made (its tool message's time, local `YYYY-MM-DD HH:MM:SS`) and by which
 * tool, by message id, from the messages of the sessions that hold the changes.
 */
async function whenAndHow(store: StoreOf, changes: readonly { sessionId: string }[]): Promise<Map<string, { time: string; tool: string }>> {
  const made = new Map<string, { time: string; tool: string }>();
  for (const sessionId of new Set(changes.map((change) => change.sessionId))) {
    for (const message of await store.loadMessages(sessionId)) {
      if (message.role === 'tool') made.set(message.id, { time: localTime(message.createdAt), tool: message.toolId });
    }
  }
  return made;
}

function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
