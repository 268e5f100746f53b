import type { CommandFinding, SandboxPolicy } from '@openwork/sandbox';
import { analyzeBashCommand } from '../dangerous-command-gate.js';
import { CallInspection, defineTool, ToolExecutionError, type CallFacts } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../../context/tool-session-context.js';
import { formatCount } from '../../text/format-bytes.js';
import { ANSWER_QUIET_MS, ANSWER_WAIT_MS, MAX_INPUT_BYTES } from './background-limits.js';
import { findTask } from './find-task.js';
import { isShellTask } from './shell-task.js';
import { describe, renderTaskRead, taskStatusLine } from './render-task.js';
import { typeInto, type TypedText } from './typed-line.js';
import { taskIdSchema } from './wait-input.js';

const inputSchema = z.strictObject({
  taskId: taskIdSchema,
  input: z
    .string()
    .describe('The text to type, as is (end a line with \\n), at most 64 KiB')
    .superRefine((value, context) => {
      if (value === '') context.addIssue({ code: 'custom', message: 'must not be empty; give the text to type (end it with \\n to press Enter), or use bash_output to read the task' });
      const bytes = Buffer.byteLength(value, 'utf8');
      if (bytes > MAX_INPUT_BYTES) {
        context.addIssue({ code: 'custom', message: `is ${formatCount(bytes)} bytes; bash_input takes at most ${formatCount(MAX_INPUT_BYTES)} bytes (64 KiB) per call. Send it in parts, or write it to a file (write) and have the program read the file` });
      }
    }),
});

/**
 * `bash_input`: types text into a running background task — its stdin pipe, or its
 * terminal with `tty: true` — and returns what it printed in answer (it waits until the task has
 * printed and then been quiet briefly, a few seconds at most). Before it runs, text typed into a
 * shell gets the dangerous-command analysis of bash (architecture §3.6): there it is a command, and
 * approvals work as for bash. An explorer reaches only the tasks it started.
 */
export const bashInputTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'bash_input',
  description: `Type text into a running background task: answer a prompt, drive a REPL or a shell. The text is sent as is, so end a line with \\n. Start the task with tty: true for programs that need a terminal; then \\u0003 is Ctrl-C and \\u0004 Ctrl-D. Returns what the task printed in answer (it waits until the output pauses, at most ${ANSWER_WAIT_MS / 1000} s; read more with bash_output).`,
  risk: 'process_execution',
  inputSchema,
  inspect: (input, session) => inspectInput(input.taskId, input.input, session),
  async execute(input, session, call) {
    const found = await findTask(session, input.taskId);
    if (found.kind === 'unknown') return found.error;
    if (found.kind === 'recorded' || found.task.state !== 'running') {
      const status = found.kind === 'recorded' ? `it ran in an earlier openwork process and is not running now (bash_output {"taskId":"${input.taskId}"} says how it ended)` : `it has ended: ${taskStatusLine(found.task)}`;
      return new ToolExecutionError('invalid_arguments', `Nothing was typed into task ${input.taskId}: ${status}. Start the command again with bash and runInBackground: true to type into it.`);
    }
    const task = found.task;
    // A line for a shell is a command: a dangerous one is the host's approver's, or refused (docs/decisions/0104).
    if (isShellTask(task.command)) {
      const { gateDangerousCommand } = await import('../dangerous-command-gate.js');
      // The line the shell will run, as prepare judged it (docs/decisions/0091): typed in parts, edited on a terminal.
      const typed = typeInto(task.typedLine, input.input, task.tty);
      const refused = await gateDangerousCommand(
        { command: typed.text, toolId: 'bash_input', cwd: task.cwd, description: `input for background task ${task.id}`, findings: unmodelledFindings(typed) },
        session,
        call,
      );
      if (refused !== undefined) return refused;
    }
    const written = task.stdin.write(input.input);
    if (written.kind === 'closed') {
      return new ToolExecutionError('execution_failed', `Nothing was typed into task ${task.id}: its input is closed (the program closed its stdin or is ending). ${taskStatusLine(task)}`);
    }
    if (written.kind === 'full') {
      return new ToolExecutionError(
        'execution_failed',
        `Nothing was typed into task ${task.id}: it has not read the ${formatCount(written.queuedBytes)} bytes typed before. Read its output with bash_output and wait until it takes input again.`,
      );
    }
    // Typed: the next input continues this line (docs/decisions/0091).
    task.typedLine = typeInto(task.typedLine, input.input, task.tty).next;
    await task.waitForAnswer(ANSWER_WAIT_MS, ANSWER_QUIET_MS, call.signal);
    return renderTaskRead(task, await task.read());
  },
});

/**
 * §6.1 for bash_input: it `runs` the typed text with a description naming the task, for the
 * approval card; text typed into a shell (`isShellTask`) gets bash's danger analysis, resolved
 * against the task's folder — approvals then work as for bash. What is judged is the line the
 * shell will run (docs/decisions/0091-typed-input-judged-as-the-line-the-shell-runs.md): the
 * line typed before this input and not yet ended with Enter, then this input, with a terminal's
 * line editing (Ctrl-U, Ctrl-W, Backspace, Ctrl-C …) applied; a line edited with a key that
 * cannot be followed (cursor keys, Tab, Ctrl-Y …) is dangerous when it runs.
 */
function inspectInput(taskId: string, text: string, session: ToolSessionContext): CallInspection {
  const task = session.backgroundTasks.visibleTo(session.agentRole).find((candidate) => candidate.id === taskId);
  const facts: { danger?: unknown; description?: string } = {
    description: task === undefined ? `input for background task ${taskId}` : `input for background task ${taskId} (${describe(task)})`,
  };
  let command = text;
  // Text for a shell (or a task this session cannot see: when in doubt, check) is a command.
  if (session.knownSandboxAvailability()?.available !== false && (task === undefined || isShellTask(task.command))) {
    const typed = task === undefined ? typeInto({ line: '' }, text, false) : typeInto(task.typedLine, text, task.tty);
    if (typed.continuesLine) {
      command = typed.text;
      facts.description = `${facts.description}: ends a line typed before, shown whole`;
    }
    const analysis = analyzeBashCommand(typed.text, session, task?.cwd ?? session.workingDirectory);
    const findings: CommandFinding[] = [...analysis.findings, ...unmodelledFindings(typed)];
    if (findings.length > 0) facts.danger = { dangerous: true, findings };
  }
  return CallInspection.runs(command, facts as CallFacts);
}

/** A line run after keys the model does not follow (cursor, history, completion) is judged dangerous: what the shell runs is unknown. */
function unmodelledFindings(typed: TypedText): CommandFinding[] {
  if (typed.unmodelled === undefined) return [];
  return [
    {
      rule: 'unparseable',
      command: typed.text,
      reason: `The line was edited with ${typed.unmodelled} on the task's terminal, so what the shell runs cannot be told from the keys typed. Type the whole command again without cursor, history or completion keys.`,
    },
  ];
}
