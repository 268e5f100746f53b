import { close, open } from 'node:fs';
import { promisify } from 'node:util';
import { createInterface } from 'node:readline';
import { isatty, ReadStream } from 'node:tty';
import type { Approver } from '@openwork/core';

/** Where a CLI command may ask the user. */
export interface TerminalApproverOptions {
  /** Whether the process has a terminal to ask on. */
  readonly interactive: boolean;
  /** `--approve`: approve without asking (core never lets this unlock hard-protected paths, §3.2). */
  readonly approveAll: boolean;
  /** Where the card and the prompt go. */
  readonly output: NodeJS.WritableStream;
  /** The terminal to read the answer from; default `/dev/tty` (stdin may carry JSON Lines). */
  readonly terminalPath?: string;
  /**
   * Called before a card is shown on the terminal: ends a line that output left open, so the card
   * starts in column 1 (docs/decisions/0090-terminal-output-is-shown-not-obeyed.md).
   */
  readonly beforeCard?: () => void;
  /** Called once the person answered (`true`: allowed), or could not be asked (`undefined`). */
  readonly afterCard?: (approved: boolean | undefined) => void;
}

/** Resets colours and attributes (SGR 0), so nothing written earlier can hide or recolour the card. */
const RESET_ATTRIBUTES = '\x1b[0m';

export const NO_TERMINAL_REFUSAL =
  'The user could not be asked: openwork has no terminal here. Escalations and dangerous commands are refused; the user can run openwork with --approve to allow them.';

/**
 * Approvals outside MCP: with `--approve` every card is approved; on a terminal the
 * card is shown with a y/N prompt (anything but y/yes refuses); otherwise the call is refused with a
 * text that tells the model why.
 */
export function terminalApprover(options: TerminalApproverOptions): Approver {
  return async (card, context) => {
    // Loaded when a card is shown: `openwork --version` and `--help` load none of core (start-up).
    const { renderApprovalCard } = await import('@openwork/core');
    if (options.approveAll) {
      options.output.write(`${renderApprovalCard(card)}\napproved by --approve\n`);
      return true;
    }
    if (!options.interactive) return { approved: false, reason: NO_TERMINAL_REFUSAL };
    options.beforeCard?.();
    options.output.write(`${RESET_ATTRIBUTES}${renderApprovalCard(card)}\nAllow this call? [y/N] `);
    const answer = await askTerminal(options.terminalPath ?? '/dev/tty', context.signal).catch(() => undefined);
    const approved = answer === undefined ? undefined : /^\s*y(es)?\s*$/i.test(answer);
    options.afterCard?.(approved);
    if (approved === undefined) return { approved: false, reason: NO_TERMINAL_REFUSAL };
    return approved ? true : { approved: false, reason: 'The user refused this call.' };
  };
}

/**
 * One line from the terminal. A `tty.ReadStream` reads without blocking, so destroying it ends
 * the read: a file stream on `/dev/tty` would leave a blocking read in the thread pool, and the
 * process could not exit until the person pressed Enter a second time.
 */
async function askTerminal(path: string, signal: AbortSignal): Promise<string | undefined> {
  const fd = await promisify(open)(path, 'r');
  if (!isatty(fd)) {
    close(fd, () => undefined);
    return undefined;
  }
  const input = new ReadStream(fd);
  const lines = createInterface({ input });
  try {
    return await new Promise<string | undefined>((resolve) => {
      lines.once('line', resolve);
      lines.once('close', () => resolve(undefined));
      input.once('error', () => resolve(undefined));
      signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
  } finally {
    lines.close();
    // Destroying the stream closes its descriptor.
    await new Promise<void>((resolve) => input.destroy().once('close', () => resolve()));
  }
}
