import { resolve } from 'node:path';
import type { ParsedArguments } from '../cli/parse-arguments.js';

/** `--workspace` values resolved against the current directory; the current directory when none. */
export function workspaceRootsOption(parsed: ParsedArguments, cwd: string = process.cwd()): string[] {
  const given = parsed.values.get('workspace') ?? [];
  return given.length === 0 ? [resolve(cwd)] : given.map((root) => resolve(cwd, root));
}
