import { analyzeCommand, type CommandAnalysis, type CommandFinding } from '@openwork/sandbox';
import { ToolExecutionError } from '@openwork/tools-contract';
import type { ToolSessionContext } from '../context/tool-session-context.js';

/** What a host's approver is asked about a dangerous command (architecture §3.6). */
export interface DangerousCommandRequest {
  /** `bash`, or `bash_input` for a line typed into a background shell. */
  readonly toolId: 'bash' | 'bash_input';
  /** The command as the model wrote it (the typed text, for `bash_input`). */
  readonly command: string;
  /** The model's few words for the person, when it gave some. */
  readonly description?: string;
  /** What the analysis found: each finding's rule, the offending part and why it is dangerous. */
  readonly danger: CommandAnalysis;
  readonly callId: string;
  /** Aborted when the call is: stop asking. */
  readonly signal: AbortSignal;
}

/**
 * Who decides on a dangerous command (`git reset --hard`, `git push --force`, `curl … | sh`,
 * `rm -rf ~` …), docs/decisions/0104 and the builtins README:
 * - a function: the host's approver, asked before the command runs; `true` runs it;
 * - `'caller'`: whoever calls the toolset asked already (core does, through `prepare` and its
 *   approver), so bash runs what it is given;
 * - absent: nobody can be asked, so a dangerous command is refused.
 */
export type DangerousCommandDecision = 'caller' | ((request: DangerousCommandRequest) => boolean | Promise<boolean>);

/** The analysis bash's approval is about: the command's own HOME (what `~` and `$HOME` will be), the session's roots. */
export function analyzeBashCommand(command: string, session: ToolSessionContext, cwd: string = session.workingDirectory): CommandAnalysis {
  return analyzeCommand(command, {
    workspaceRoots: session.workspaceRoots,
    homeDirectory: session.environment['HOME'] ?? session.homeDirectory,
    cwd,
  });
}

/**
 * Before bash runs a command in a session whose host has not decided already (`'caller'`): a
 * dangerous one goes to the host's approver, or is refused when there is none. Returns the
 * refusal to give the model, or `undefined` to run.
 */
export async function gateDangerousCommand(
  input: {
    readonly command: string;
    readonly description?: string | undefined;
    readonly toolId?: 'bash' | 'bash_input';
    readonly cwd?: string;
    /** Findings the analysis of the text cannot make (a typed line edited with keys the model does not follow). */
    readonly findings?: readonly CommandFinding[];
  },
  session: ToolSessionContext,
  call: { readonly callId: string; readonly signal: AbortSignal },
): Promise<ToolExecutionError | undefined> {
  const decide = session.dangerousCommands;
  // As prepare: without a working sandbox bash runs nothing, so there is nothing to approve.
  if (decide === 'caller' || session.knownSandboxAvailability()?.available === false) return undefined;
  const analysed = analyzeBashCommand(input.command, session, input.cwd);
  const findings = [...analysed.findings, ...(input.findings ?? [])];
  if (findings.length === 0) return undefined;
  const danger: CommandAnalysis = { ...analysed, dangerous: true, findings };
  const reasons = danger.findings.map((finding) => `${finding.command}: ${finding.reason}`).join(' ');
  if (decide === undefined) {
    return new ToolExecutionError(
      'permission_denied',
      `This command was not run: ${reasons} It needs the user's approval, and this host has no one to ask. Do it another way, or tell the user the exact command so they can run it themselves.`,
    );
  }
  let approved: boolean;
  try {
    approved = (await decide({ toolId: input.toolId ?? 'bash', command: input.command, ...(input.description === undefined ? {} : { description: input.description }), danger, callId: call.callId, signal: call.signal })) === true;
  } catch (error) {
    return new ToolExecutionError('permission_denied', `This command was not run: asking the user failed (${error instanceof Error ? error.message : String(error)}). ${reasons}`);
  }
  if (approved) return undefined;
  return new ToolExecutionError('permission_denied', `The user refused this command: ${reasons} Do not run it another way; ask the user what they want instead.`);
}
