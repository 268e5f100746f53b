import { APPROVE_HELP, APPROVE_OPTION, CONTINUE_SESSION_HELP, DATABASE_OPTION, JSON_OPTION, MODE_OPTION, NETWORK_OPTION, SESSION_OPTION, SESSION_OPTION_HELP, WORKSPACE_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { UsageError } from '../cli/usage-error.js';
import { changeNotes, resultText } from '../output/tool-result-output.js';
import { saveObservations } from '../runtime/session-observations.js';
import { withCommandSession } from '../runtime/with-command-session.js';

/**
 * `openwork call <tool> '<json>'` (architecture §7): one call in a new stored session, or in the
 * stored session `--session ID` names (read-then-edit across calls). Prints the model-visible
 * text, or the whole `ToolResult` with `--json`; exit 0 only for `succeeded`.
 */
export const callCommand: CommandSpec = {
  name: 'call',
  summary: 'run one tool call and print its result',
  usage: "openwork call <tool> '<json>' [--workspace DIR] [--mode M] [--network allow|none] [--session ID] [--json] [--approve]",
  details: [
    'Runs one call with every check a model call gets (sandbox, approvals, result limits) in a new',
    'stored session, so a write or edit can be undone with openwork undo. Exit status 0 only when',
    'the call succeeded. On a terminal, bash output streams live while the command runs.',
    ...SESSION_OPTION_HELP,
    CONTINUE_SESSION_HELP,
    '  --json            print the whole ToolResult (status, content, artifacts, error) as JSON',
    APPROVE_HELP,
  ],
  options: [WORKSPACE_OPTION, MODE_OPTION, NETWORK_OPTION, SESSION_OPTION, JSON_OPTION, DATABASE_OPTION, APPROVE_OPTION],
  async run(parsed, io) {
    const [tool, inputText, ...rest] = parsed.positionals;
    if (tool === undefined) throw new UsageError('openwork call: missing the tool name; see openwork call --help');
    if (rest.length > 0) throw new UsageError(`openwork call: unexpected argument ${JSON.stringify(rest[0])}; pass the input as one JSON argument`);
    const input = parseInput(inputText ?? '{}');
    return withCommandSession('call', parsed, io, async (session, signal) => {
      const shown = new ShownOutput();
      const outcome = await session.callTool(tool, input, {
        signal,
        // §8.3: on a terminal, command output shows while it runs; the result follows.
        ...(io.interactive
          ? {
              onProgress: (progress) => {
                if (progress.kind === 'message') return void io.stderr.write(`${progress.message}\n`);
                shown.add(progress.chunk);
                io.stderr.write(progress.chunk);
              },
            }
          : {}),
      });
      await saveObservations(io.environment, session);
      const { result } = outcome;
      io.stdout.write(parsed.flags.has('json') ? `${JSON.stringify(result)}\n` : `${shown.remainderOf(resultText(result))}\n`);
      for (const note of changeNotes(result, session.id)) io.stderr.write(`${note}\n`);
      io.stderr.write(`session ${session.id} (continue it with --session ${session.id})\n`);
      return result.status === 'succeeded' ? 0 : 1;
    });
  },
};

/**
 * What a call already streamed to the terminal (bash output was printed twice, streamed
 * and then in the result). The result text repeats the output before its status line; when the
 * end of what was shown is found in it, only what follows (`[exit 0; duration …]`, denial notes)
 * is printed. Anything else — nothing streamed, or output the result shows differently — prints
 * whole. Only the last 4 KiB shown are kept.
 */
class ShownOutput {
  static readonly #KEPT = 4096;
  #tail = '';

  add(chunk: string): void {
    this.#tail = (this.#tail + chunk).slice(-ShownOutput.#KEPT);
  }

  remainderOf(text: string): string {
    const end = this.#tail.replace(/\s+$/u, '');
    if (end === '') return text;
    const at = text.lastIndexOf(end);
    return at === -1 ? text : text.slice(at + end.length).replace(/^\s*\n/u, '');
  }
}

function parseInput(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch {
    throw new UsageError(`openwork call: the input must be one JSON object, e.g. '{"path":"README.md"}'; got ${JSON.stringify(text.slice(0, 80))}`);
  }
}
