import { DATABASE_OPTION, SESSION_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { optionValue } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';
import { groupChangesBySession } from '../runtime/find-file-changes.js';
import { openRuntime } from '../runtime/open-runtime.js';

/**
 * `openwork undo <changeId…>` and `openwork reapply <changeId…>` (§8.4): through the session that
 * made each change, so a file that changed since is a conflict and is never overwritten.
 */
function moveFileChangesCommand(operation: 'undo' | 'reapply'): CommandSpec {
  return {
    name: operation,
    summary: operation === 'undo' ? 'undo stored file changes by change id' : 'apply undone file changes again',
    usage: `openwork ${operation} <changeId…> [--session ID]`,
    details: [
      operation === 'undo'
        ? 'Restores what each change replaced (last change first). A file that was changed since is a'
        : 'Writes each undone change again (first change first). A file that was changed since is a',
      'conflict: nothing is overwritten and the exit status is 1. Change ids (or their short form, any',
      'unique prefix) come from openwork changes; a bash call\'s id names every change it made. A',
      'change recorded without its contents (a binary file, one over 1 MiB) cannot be undone: exit 1',
      'with the reason (not_recorded), nothing is changed.',
      '  --session ID      look for the changes in this session only',
      '  --database URL    PostgreSQL store (default: OPENWORK_DATABASE_URL, else SQLite in the OpenWork home)',
    ],
    options: [SESSION_OPTION, DATABASE_OPTION],
    async run(parsed, io) {
      if (parsed.positionals.length === 0) throw new UsageError(`openwork ${operation}: give at least one change id; openwork changes lists them`);
      const opened = await openRuntime({ environment: io.environment, database: optionValue(parsed, 'database') });
      try {
        const { bySession, unknown } = await groupChangesBySession(opened.runtime, parsed.positionals, optionValue(parsed, 'session'));
        if (unknown.length > 0) {
          io.stderr.write(`openwork ${operation}: no stored change ${unknown.map((id) => JSON.stringify(id)).join(', ')} (or a short id that names more than one); nothing was changed\n`);
          return 1;
        }
        let status = 0;
        for (const [sessionId, changeIds] of bySession) {
          const session = await opened.runtime.openSession(sessionId);
          const outcome = await session[operation](changeIds);
          if (outcome.ok) {
            for (const changeId of changeIds) io.stdout.write(`${operation === 'undo' ? 'undone' : 'reapplied'} ${changeId}\n`);
          } else {
            status = 1;
            // §3.9: the message names paths the model chose.
            const { revealHiddenCharacters } = await import('@openwork/core');
            io.stderr.write(`openwork ${operation}: ${outcome.code}: ${'message' in outcome ? revealHiddenCharacters(String(outcome.message)) : ''}\n`);
          }
        }
        return status;
      } finally {
        await opened.close();
      }
    },
  };
}

export const undoCommand = moveFileChangesCommand('undo');
export const reapplyCommand = moveFileChangesCommand('reapply');
