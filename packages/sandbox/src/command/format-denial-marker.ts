import * as path from 'node:path';
import type { SandboxDenial } from './detect-sandbox-denial.js';

/** Options of `formatDenialMarker`. */
export interface DenialMarkerOptions {
  /** The tool to call again; `bash` unless another tool ran the command. */
  readonly toolName?: string;
  /** Resolves relative paths from the output (`touch: cannot touch 'x'`), since grants name absolute paths. */
  readonly workingDirectory?: string;
}

const maximumQuotedLines = 3;
const maximumLineLength = 300;

/**
 * The `[sandbox denied: …]` line appended after bash's status line (architecture §3.5, spec §7.9),
 * with the retry hint that names the escalation parameters of §7.5.
 */
export function formatDenialMarker(denial: SandboxDenial, options: DenialMarkerOptions = {}): string {
  const toolName = options.toolName ?? 'bash';
  const quoted = denial.lines
    .slice(0, maximumQuotedLines)
    .map((line) => (line.length > maximumLineLength ? `${line.slice(0, maximumLineLength)}…` : line))
    .join(' | ');
  const more = denial.lines.length > maximumQuotedLines ? ` (+${denial.lines.length - maximumQuotedLines} more)` : '';
  const requested = denial.paths.map((denied) => ({
    path: options.workingDirectory === undefined ? denied.path : path.posix.resolve(options.workingDirectory, denied.path),
    access: denied.access,
    scope: 'exact',
  }));
  const unique = requested.filter(
    (entry, index) => requested.findIndex((other) => other.path === entry.path && other.access === entry.access) === index,
  );
  const parameters = unique.length > 0
    ? JSON.stringify({ paths: unique })
    : '{"paths":[{"path":"<the denied path>","access":"write","scope":"exact"}]}';
  return `[sandbox denied: ${quoted}${more}. To get access, call ${toolName} again with sandboxPermissions ${parameters} and a one-line justification; the user will be asked.]`;
}
