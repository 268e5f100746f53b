import { DATABASE_OPTION, JSON_OPTION, SESSION_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { formatTable } from '../output/format-table.js';
import { listStoredFileChanges } from '../runtime/find-file-changes.js';
import { openRuntime } from '../runtime/open-runtime.js';

/** `openwork changes [--session ID] [--diff ID]` (§8.4): the stored file changes. */
export const changesCommand: CommandSpec = {
  name: 'changes',
  summary: 'list stored file changes, or show one as a diff',
  usage: 'openwork changes [--session ID] [--diff CHANGE_ID] [--json]',
  details: [
    'A table of file changes (change id, session, path, +/- lines, undone or applied), of one session',
    'or of all stored sessions; --diff shows one change as a unified diff from the stored record.',
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
        const change = changes.find((candidate) => candidate.changeId === diffId);
        if (change === undefined) {
          io.stderr.write(`openwork changes: no stored change ${JSON.stringify(diffId)}; openwork changes lists them\n`);
          return 1;
        }
        const { renderFileChange } = await import('@openwork/core');
        io.stdout.write(`${renderFileChange(change.artifact).replace(/\n$/, '')}\n`);
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
      const rows = changes.map((change) => {
        const { displayPath, additions, deletions } = change.artifact.change as { displayPath?: unknown; additions?: unknown; deletions?: unknown };
        return [change.changeId, change.sessionId, String(displayPath ?? change.path), `+${String(additions)}`, `-${String(deletions)}`, change.undone ? 'undone' : 'applied'];
      });
      io.stdout.write(`${formatTable(['CHANGE', 'SESSION', 'PATH', '+', '-', 'STATE'], rows)}\n`);
      return 0;
    } finally {
      await opened.close();
    }
  },
};
