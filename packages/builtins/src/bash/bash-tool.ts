import type { SandboxPolicy } from '@openwork/sandbox';
import { defineTool, type ToolInput } from '@openwork/tools-contract';
import * as z from 'zod';
import type { ToolSessionContext } from '../context/tool-session-context.js';
import { escalationInputShape, requireJustification } from '../escalation/escalation-parameters.js';
import { formatCount } from '../text/format-bytes.js';
import { backgroundInputShape } from './background/background-input.js';
import { DEFAULT_TIMEOUT_MS, MAX_COMMAND_BYTES, MAX_TIMEOUT_MS } from './bash-limits.js';
import { inspectBash } from './inspect-bash.js';

const command = z
  .string()
  .describe('The command, at most 1 MiB')
  .superRefine((value, context) => {
    if (value.trim() === '') context.addIssue({ code: 'custom', message: 'must not be empty; give the shell command to run' });
    if (value.includes('\0')) context.addIssue({ code: 'custom', message: 'contains a NUL byte, which no command line can carry; remove it' });
    const bytes = value.length <= MAX_COMMAND_BYTES / 3 ? value.length : new TextEncoder().encode(value).length;
    if (bytes > MAX_COMMAND_BYTES) {
      context.addIssue({
        code: 'custom',
        message: `is ${formatCount(bytes)} bytes; bash takes at most ${formatCount(MAX_COMMAND_BYTES)} bytes (1 MiB). Write a long script to a file (write) and run the file`,
      });
    }
  });

const inputSchema = z
  .strictObject({
    command,
    timeoutMs: z
      .number()
      .default(DEFAULT_TIMEOUT_MS)
      .describe(`Milliseconds until the command and every process it started are killed (1–${MAX_TIMEOUT_MS}, clamped)`),
    ...backgroundInputShape,
    ...escalationInputShape,
  })
  .superRefine(requireJustification)
  .superRefine((value, context) => {
    if (value.tty && !value.runInBackground) {
      context.addIssue({ code: 'custom', path: ['tty'], message: 'needs runInBackground: true — a terminal is for a task you type into with bash_input; leave tty out for a foreground command' });
    }
  });

/** A `bash` call's input, defaults applied. */
export type BashInput = ToolInput<typeof inputSchema>;

/**
 * §7.9 `bash`: `/bin/bash -c <command>` in the session's working directory, always inside the
 * kernel sandbox with the policy stamped on this call, and through the process backend (§4).
 * A new shell every call; stdin is /dev/null; the environment is the session's (§4) plus the
 * sandbox's additions. The result is the merged output, bounded to head 2 KiB + tail 14 KiB with
 * the rest spilled (§8.2), then the status line; the outcome table is `renderBashResult`'s.
 */
export const bashTool = defineTool<typeof inputSchema, ToolSessionContext, SandboxPolicy>({
  id: 'bash',
  description:
    'Run a shell command with /bin/bash -c in the workspace root, inside the sandbox of this session: it can read files except credentials, and write only where this session may write. Every call is a new shell (cd and variables do not carry over); stdin is empty in the foreground, so use non-interactive options. stdout and stderr come back merged; above 16 KB you see the first 2 KB and the last 14 KB, and the full output is saved to a file whose path the result gives (read or grep it). The last line is the status, e.g. [exit 1; duration 40 ms]; a non-zero exit is a normal result. For a server, a watcher or anything longer, set runInBackground: true: you get what it printed within yieldMs and a task id for bash_output, bash_input and bash_kill (at most 8 running tasks). Prefer read, grep, glob and list for looking at files.',
  risk: 'process_execution',
  inputSchema,
  inspect: (input, session) => inspectBash(input.command, input, session),
  async execute(input, session, call) {
    // Loaded on the first call (docs/decisions/0002-tools-load-their-call-code-on-first-call.md): the process runner, the bubblewrap wrapping and the
    // background tasks stay unloaded in a process that never runs a command.
    const { gateDangerousCommand } = await import('./dangerous-command-gate.js');
    const refused = await gateDangerousCommand(input, session, call);
    if (refused !== undefined) return refused;
    const { runBashCall } = await import('./run-bash-call.js');
    return runBashCall(input, session, call);
  },
});
