import { APPROVE_HELP, APPROVE_OPTION, CONTINUE_SESSION_HELP, DATABASE_OPTION, JSON_OPTION, MODE_OPTION, NETWORK_OPTION, SESSION_OPTION, SESSION_OPTION_HELP, WORKSPACE_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { UsageError } from '../cli/usage-error.js';
import { optionValue } from '../cli/parse-arguments.js';
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
    // Loaded when the command runs (start-up): what reaches the terminal is shown, never obeyed (§3.9).
    const { GutteredTerminal, jsonLine, visibleText } = await import('../output/terminal-text.js');
    const stdoutTerminal = (io.stdout as { isTTY?: boolean }).isTTY === true;
    const columns = (io.stderr as { columns?: number }).columns;
    // docs/decisions/0090: on a terminal, a command's output and a tool's result sit behind a
    // gutter; openwork's own lines (the status line, change notes, approval cards) never do.
    const screen = io.interactive ? new GutteredTerminal(io.stderr, columns) : undefined;
    const running = screen === undefined ? undefined : new RunningIndicator(io.stderr, screen);
    let refusedAtPrompt = false;
    return withCommandSession(
      'call',
      parsed,
      io,
      async (session, signal, stored) => {
        const shown = new ShownOutput();
        running?.start();
        const outcome = await session
          .callTool(tool, input, {
            signal,
            // §8.3: on a terminal, command output shows while it runs; the result follows.
            ...(screen !== undefined
              ? {
                  onProgress: (progress) => {
                    running?.clear();
                    if (progress.kind === 'message') return void screen.ownLine(`${tool}: ${visibleText(progress.message).replace(/\n/g, ' ')}`);
                    shown.add(progress.chunk);
                    screen.output(progress.chunk);
                  },
                }
              : {}),
          })
          .finally(() => running?.stop());
        const { result } = outcome;
        const unknownTool = result.error?.code === 'tool_not_found';
        // A call of a tool that does not exist leaves no new stored session behind (nothing ran).
        if (unknownTool && optionValue(parsed, 'session') === undefined) await stored.discard();
        else await saveObservations(io.environment, session);
        const text = resultText(result);
        if (parsed.flags.has('json')) io.stdout.write(jsonLine(result));
        else if (refusedAtPrompt && result.status === 'denied') {
          // The result's text is for a model ("Do not repeat the same call …"); the person who
          // answered "n" is told what happened (docs/decisions/0093).
          io.stdout.write('Not run: you refused it at the prompt; nothing was changed.\n');
        } else {
          const remainder = shown.remainderOf(text);
          screen?.endLine();
          // A foreground bash call that streamed nothing printed nothing: its text is only the
          // status line and the notes after it, which are ours.
          const silentBash = screen !== undefined && shown.empty && tool === 'bash' && (input as { runInBackground?: unknown }).runInBackground !== true && STATUS_LINE.test(text);
          // Only on the terminal the output streamed to: a file or pipe gets the whole text.
          if (!stdoutTerminal) io.stdout.write(`${visibleText(text)}\n`);
          else if (remainder !== text || silentBash) io.stdout.write(`${visibleText(remainder)}\n`);
          else {
            const resultScreen = new GutteredTerminal(io.stdout, (io.stdout as { columns?: number }).columns ?? columns);
            resultScreen.output(text);
            resultScreen.endLine();
          }
        }
        for (const note of changeNotes(result, session.id)) io.stderr.write(`${visibleText(note)}\n`);
        if (!(unknownTool && optionValue(parsed, 'session') === undefined)) io.stderr.write(`session ${session.id} (continue it with --session ${session.id})\n`);
        return result.status === 'succeeded' ? 0 : 1;
      },
      {
        beforeCard: () => {
          running?.pause();
          screen?.endLine();
        },
        afterCard: (approved) => {
          if (approved === false) refusedAtPrompt = true;
          running?.start();
        },
      },
    );
  },
};

/** The first line of a bash result with no output: `[exit 0; duration 9 ms]`, `[timed out after …; duration …]`. */
const STATUS_LINE = /^\[[^\n\]]*duration \d+ ms\](?:\n|$)/;

/**
 * "running… N s" on its own line while a call shows nothing (a silent `sleep 5` was a blank
 * screen): it appears after a second without output, counts seconds, and is erased again when
 * output comes, an approval card is shown, or the call ends. It is openwork's own line, so it is
 * written flush left, and only where no output line is open.
 */
class RunningIndicator {
  readonly #stream: NodeJS.WritableStream;
  readonly #screen: { readonly lineOpen: boolean };
  #timer: NodeJS.Timeout | undefined;
  #since = 0;
  #showing = false;

  constructor(stream: NodeJS.WritableStream, screen: { readonly lineOpen: boolean }) {
    this.#stream = stream;
    this.#screen = screen;
  }

  start(): void {
    this.pause();
    this.#since = Date.now();
    this.#timer = setInterval(() => this.#show(), 1000);
    this.#timer.unref();
  }

  /** Erases the line and waits a second more before showing it again. */
  clear(): void {
    this.#erase();
    this.#since = Date.now();
  }

  pause(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#erase();
  }

  stop(): void {
    this.pause();
  }

  #show(): void {
    const seconds = Math.floor((Date.now() - this.#since) / 1000);
    if (seconds < 1 || this.#screen.lineOpen) return;
    this.#stream.write(`\r\x1b[2Krunning… ${seconds} s (Ctrl-C stops it)`);
    this.#showing = true;
  }

  #erase(): void {
    if (!this.#showing) return;
    this.#stream.write('\r\x1b[2K');
    this.#showing = false;
  }
}

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
  #empty = true;

  add(chunk: string): void {
    this.#tail = (this.#tail + chunk).slice(-ShownOutput.#KEPT);
    if (chunk !== '') this.#empty = false;
  }

  /** Nothing was streamed. */
  get empty(): boolean {
    return this.#empty;
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
