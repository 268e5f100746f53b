import * as path from 'node:path';
import type { PathAccess } from '../policy/sandbox-policy.js';
import type { SandboxDenial } from './detect-sandbox-denial.js';

/** Options of `formatDenialMarker`. */
export interface DenialMarkerOptions {
  /** The tool to call again; `bash` unless another tool ran the command. */
  readonly toolName?: string;
  /** Resolves relative paths from the output (`touch: cannot touch 'x'`), since grants name absolute paths. */
  readonly workingDirectory?: string;
  /**
   * Whether a grant could open `path` (absolute) for `access`. Tier 1 — the OpenWork home, skill
   * roots, `<root>/.openwork` — and folders holding protected entries never can (architecture
   * §3.2, §3.3): the marker names those as protected instead of asking the model to request a
   * grant the user cannot give. Default: every path can (`checkAccess(…).suggestedGrant` answers it).
   */
  readonly canBeGranted?: (path: string, access: PathAccess) => boolean;
}

const maximumQuotedLines = 3;
const maximumLineLength = 300;

/**
 * The `[sandbox denied: …]` line appended after bash's status line (architecture §3.5, spec §7.9):
 * the kernel's words, then the retry hint that names the escalation parameters of §7.5 for the
 * paths a grant can open, and "protected" for those no grant can.
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
  const grantable = unique.filter((entry) => options.canBeGranted?.(entry.path, entry.access) ?? true);
  const protectedPaths = [...new Set(unique.filter((entry) => !grantable.includes(entry)).map((entry) => entry.path))];
  const retry = (parameters: string, what: string): string =>
    `To get access${what}, call ${toolName} again with sandboxPermissions ${parameters} and a one-line justification; the user will be asked.`;

  const sentences: string[] = [];
  if (protectedPaths.length > 0) {
    sentences.push(`${protectedPaths.join(', ')} ${protectedPaths.length === 1 ? 'is' : 'are'} protected and cannot be changed by tools.`);
  }
  if (grantable.length > 0) {
    sentences.push(retry(JSON.stringify({ paths: grantable }), protectedPaths.length > 0 ? ' to the other paths' : ''));
  } else if (unique.length === 0) {
    sentences.push(retry('{"paths":[{"path":"<the denied path>","access":"write","scope":"exact"}]}', ''));
  }
  return `[sandbox denied: ${quoted}${more}. ${sentences.join(' ')}]`;
}
