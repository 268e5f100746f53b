import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Approver } from '@openwork/core';
import { renderApprovalCard } from './render-approval-card.js';

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
}

export const NO_TERMINAL_REFUSAL =
  'The user could not be asked: openwork has no terminal here. Escalations and dangerous commands are refused; the user can run openwork with --approve to allow them.';

/**
 * Approvals outside MCP (issue 16): with `--approve` every card is approved; on a terminal the
 * card is shown with a y/N prompt (anything but y/yes refuses); otherwise the call is refused with a
 * text that tells the model why.
 */
export function terminalApprover(options: TerminalApproverOptions): Approver {
  return async (card, context) => {
    if (options.approveAll) {
      options.output.write(`${renderApprovalCard(card)}\napproved by --approve\n`);
      return true;
    }
    if (!options.interactive) return { approved: false, reason: NO_TERMINAL_REFUSAL };
    options.output.write(`${renderApprovalCard(card)}\nAllow this call? [y/N] `);
    const answer = await askTerminal(options.terminalPath ?? '/dev/tty', context.signal).catch(() => undefined);
    if (answer === undefined) return { approved: false, reason: NO_TERMINAL_REFUSAL };
    return /^\s*y(es)?\s*$/i.test(answer) ? true : { approved: false, reason: 'The user refused this call.' };
  };
}

async function askTerminal(path: string, signal: AbortSignal): Promise<string | undefined> {
  const handle = await open(path, 'r');
  const input = createReadStream('', { fd: handle.fd, autoClose: false });
  const lines = createInterface({ input });
  try {
    return await new Promise<string | undefined>((resolve) => {
      lines.once('line', resolve);
      lines.once('close', () => resolve(undefined));
      signal.addEventListener('abort', () => resolve(undefined), { once: true });
    });
  } finally {
    lines.close();
    input.destroy();
    await handle.close().catch(() => undefined);
  }
}
