import { AGENT_OPTION, APPROVE_HELP, APPROVE_OPTION, CONTINUE_SESSION_HELP, DATABASE_OPTION, MODE_OPTION, NETWORK_OPTION, SESSION_OPTION, SESSION_OPTION_HELP, WORKSPACE_OPTION } from '../cli/common-options.js';
import type { CommandSpec } from '../cli/command-spec.js';
import { UsageError } from '../cli/usage-error.js';
import { formatSize, MAX_INPUT_LINE_BYTES, type InputLine } from '../input/bounded-lines.js';
import { readInputLines } from '../input/read-input-lines.js';
import { inputFailure } from '../output/tool-result-output.js';
import { saveObservations } from '../runtime/session-observations.js';
import { withCommandSession } from '../runtime/with-command-session.js';

/**
 * `openwork session` (architecture §7): JSON Lines on stdin, one `ToolResult` line per input line,
 * all calls in one stored session with one observation table (§7.4: a read lets a later edit run).
 */
export const sessionCommand: CommandSpec = {
  name: 'session',
  summary: 'run tool calls from JSON Lines on stdin in one stored session',
  usage: 'openwork session [--workspace DIR] [--mode M] [--network allow|none] [--agent default|explorer] [--session ID] [--approve]',
  details: [
    'Each stdin line {"tool": "read", "input": {...}} gets one stdout line: the ToolResult as JSON.',
    'A malformed line, or one over 8 MiB, gets a failed result line (invalid_arguments) and the',
    'stream goes on. The session id is printed to stderr at start; its file changes can be undone',
    'with openwork undo.',
    ...SESSION_OPTION_HELP,
    '  --agent ROLE      default | explorer',
    CONTINUE_SESSION_HELP,
    APPROVE_HELP,
  ],
  options: [WORKSPACE_OPTION, MODE_OPTION, NETWORK_OPTION, AGENT_OPTION, SESSION_OPTION, DATABASE_OPTION, APPROVE_OPTION],
  async run(parsed, io) {
    if (parsed.positionals.length > 0) throw new UsageError(`openwork session: unexpected argument ${JSON.stringify(parsed.positionals[0])}; calls come on stdin`);
    const { jsonLine } = await import('../output/terminal-text.js'); // loaded on use (start-up)
    return withCommandSession('session', parsed, io, async (session, signal) => {
      io.stderr.write(`openwork session ${session.id}\n`);
      let lineNumber = 0;
      let failures = 0;
      // Lines are read bounded (bounded input): a longer one is skipped as it streams, never held.
      for await (const line of readInputLines(io.stdin, io.stdinDescriptor)) {
        lineNumber += 1;
        if (line.kind === 'line' && line.bytes.toString('utf8').trim() === '') continue;
        if (signal.aborted) break;
        const call = parseCallLine(line, lineNumber);
        const result = 'failure' in call ? call.failure : (await session.callTool(call.tool, call.input, { signal })).result;
        if (!('failure' in call)) await saveObservations(io.environment, session);
        if (result.status !== 'succeeded') failures += 1;
        io.stdout.write(jsonLine(result));
      }
      return failures === 0 ? 0 : 1;
    });
  },
};

type CallLine = { readonly tool: string; readonly input: unknown } | { readonly failure: ReturnType<typeof inputFailure> };

function parseCallLine(line: InputLine, lineNumber: number): CallLine {
  const expected = 'expected {"tool": "<name>", "input": {...}}';
  if (line.kind === 'oversized') {
    return {
      failure: inputFailure(`Line ${lineNumber} is ${formatSize(line.length)}; openwork session reads lines of at most ${formatSize(MAX_INPUT_LINE_BYTES)}, so it was skipped. Send large contents in parts (several write or edit calls) or produce them with a command.`),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(line.bytes.toString('utf8'));
  } catch (error) {
    return { failure: inputFailure(`Line ${lineNumber} is not JSON (${error instanceof Error ? error.message : String(error)}); ${expected}.`) };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { failure: inputFailure(`Line ${lineNumber} is not a JSON object; ${expected}.`) };
  const { tool, input } = value as { tool?: unknown; input?: unknown };
  if (typeof tool !== 'string' || tool === '') return { failure: inputFailure(`Line ${lineNumber} has no "tool" name; ${expected}.`) };
  return { tool, input: input ?? {} };
}
