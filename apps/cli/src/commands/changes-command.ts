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
    'Any unique prefix of an id (the short ids shown) names it here and in undo / reapply. A bash',
    'call\'s changes are <call id>.<n>; the call id alone names all of them.',
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
        const named = findChange(changes, diffId);
        if (named === undefined || Array.isArray(named)) {
          const which = Array.isArray(named) ? `${JSON.stringify(diffId)} names ${named.length} changes; give more of the id` : `no stored change ${JSON.stringify(diffId)}`;
          io.stderr.write(`openwork changes: ${which}; openwork changes lists them\n`);
          return 1;
        }
        const { renderFileChange } = await import('@openwork/core');
        // §3.9: the path and lines come from the model; shown with hidden characters revealed.
        const diff = (named.kind === 'change' ? [named.change] : named.changes).map((change) => renderFileChange(change.artifact, { revealHiddenCharacters: true })).join('');
        io.stdout.write(`${colorDiff(diff.replace(/\n$/, ''), colorsFor(io.stdout as { isTTY?: boolean }, io.environment))}\n`);
        return 0;
      }
      if (parsed.flags.has('json')) {
        const { jsonLine } = await import('../output/terminal-text.js'); // loaded on use (start-up)
        io.stdout.write(jsonLine(changes));
        return 0;
      }
      if (changes.length === 0) {
        io.stdout.write('No file changes stored.\n');
        return 0;
      }
      const { made, unlisted, withConflicts } = await whenAndHow(opened.runtime.store, changes);
      const { revealHiddenCharacters } = await import('@openwork/core'); // loaded on use (start-up)
      const rows = changes.map((change) => {
        const facts = change.artifact.change as ChangeFacts;
        const { time, tool } = made.get(change.messageId) ?? { time: '', tool: '' };
        const counted = facts.entry === undefined && facts.unrecorded === undefined;
        return [
          shortId(change.changeId),
          time,
          tool,
          shortId(change.sessionId),
          revealHiddenCharacters(`${String(facts.displayPath ?? change.path)}${pathNote(facts)}`), // §3.9: a path from the model
          counted ? `+${String(facts.additions)}` : '',
          counted ? `-${String(facts.deletions)}` : '',
          change.undone ? 'undone' : 'applied',
        ];
      });
      io.stdout.write(`${formatTable(['CHANGE', 'TIME', 'TOOL', 'SESSION', 'PATH', '+', '-', 'STATE'], rows)}\n`);
      for (const summary of withConflicts) {
        const conflicts = summary.conflicts ?? [];
        io.stdout.write(`bash call ${shortId(summary.callId)}: ${conflicts.length} entr${conflicts.length === 1 ? 'y' : 'ies'} changed on the host while it ran were not applied (the host kept its version):\n`);
        for (const conflict of conflicts) {
          const kept = conflict.keptAt === undefined ? '' : `; the command's version is at ${revealHiddenCharacters(conflict.keptAt)}`;
          io.stdout.write(`  ${conflict.operation} ${revealHiddenCharacters(conflict.path)}: ${conflict.reason}${kept}\n`);
        }
      }
      for (const summary of unlisted) {
        const total = summary.counts.created + summary.counts.modified + summary.counts.deleted;
        io.stdout.write(
          `bash call ${shortId(summary.callId)} changed ${total} entries (${summary.counts.created} created, ${summary.counts.modified} modified, ${summary.counts.deleted} deleted); the first ${summary.recorded} are listed, the rest were counted only and cannot be undone\n`,
        );
      }
      return 0;
    } finally {
      await opened.close();
    }
  },
};

type StoreOf = Awaited<ReturnType<typeof openRuntime>>['store'];

/** The fields of a stored change the table shows. */
interface ChangeFacts {
  readonly displayPath?: unknown;
  readonly additions?: unknown;
  readonly deletions?: unknown;
  readonly kind?: unknown;
  readonly entry?: unknown;
  readonly unrecorded?: unknown;
  readonly afterTarget?: unknown;
  readonly beforeTarget?: unknown;
}

/** What the path column adds for a change that is not a text file's: `/` for a folder, a link's target, why contents are missing. */
function pathNote(facts: ChangeFacts): string {
  const target = facts.afterTarget ?? facts.beforeTarget;
  const entry = facts.entry === 'directory' ? '/' : facts.entry === 'symlink' && typeof target === 'string' ? ` -> ${target}` : '';
  const deleted = facts.kind === 'deleted' ? ' (deleted)' : '';
  const unrecorded = facts.unrecorded === 'binary' ? ' (binary)' : facts.unrecorded === 'too_large' ? ' (over 1 MiB)' : typeof facts.unrecorded === 'string' ? ' (not undoable)' : '';
  return `${entry}${deleted}${unrecorded}`;
}

/** A bash call's summary of its changes (`file_change_summary`), as the table needs it. */
interface ChangeSummary {
  readonly callId: string;
  readonly counts: { readonly created: number; readonly modified: number; readonly deleted: number };
  readonly recorded: number;
  readonly complete: boolean;
  readonly conflicts?: readonly { readonly path: string; readonly operation: string; readonly reason: string; readonly keptAt?: string }[];
}

/**
 * When each change was made (its tool message's time, local `YYYY-MM-DD HH:MM:SS`) and by which
 * tool, by message id, from the messages of the sessions that hold the changes; and the bash calls
 * among them that changed more than they list.
 */
async function whenAndHow(store: StoreOf, changes: readonly { sessionId: string }[]): Promise<{ made: Map<string, { time: string; tool: string }>; unlisted: ChangeSummary[]; withConflicts: ChangeSummary[] }> {
  const made = new Map<string, { time: string; tool: string }>();
  const unlisted: ChangeSummary[] = [];
  const withConflicts: ChangeSummary[] = [];
  for (const sessionId of new Set(changes.map((change) => change.sessionId))) {
    for (const message of await store.loadMessages(sessionId)) {
      if (message.role !== 'tool') continue;
      made.set(message.id, { time: localTime(message.createdAt), tool: message.toolId });
      for (const artifact of message.result.artifacts) {
        const summary = (artifact as { summary?: ChangeSummary }).summary;
        if (artifact.kind === 'file_change_summary' && summary !== undefined && summary.complete === false) unlisted.push(summary);
        if (artifact.kind === 'file_change_summary' && summary !== undefined && (summary.conflicts?.length ?? 0) > 0) withConflicts.push(summary);
      }
    }
  }
  return { made, unlisted, withConflicts };
}

function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
