import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParsedArguments } from '../cli/parse-arguments.js';
import { UsageError } from '../cli/usage-error.js';

/**
 * Why `/` is never a workspace root (docs/decisions/0035-core-runtime-choices.md): a workspace root is writable, so `/` would make
 * every file outside the protected paths writable without anyone having said so. HOME is allowed:
 * people work there, and every home protection still applies inside it.
 */
export function filesystemRootRefusal(origin: string): string {
  return `${origin} is / (the whole file system), which openwork refuses as a workspace root: every file outside the protected paths would become writable. Use the project's folder instead (--workspace ~/project, or an MCP root for the project); your home folder is allowed.`;
}

/** Whether `path` is the file-system root once `..` and symbolic links are resolved. */
export function isFilesystemRoot(path: string): boolean {
  const resolved = resolve(path);
  let canonical = resolved;
  try {
    canonical = realpathSync.native(resolved);
  } catch {
    // A missing folder is not `/`; core reports it when the session starts.
  }
  return resolved === '/' || canonical === '/';
}

/** `--workspace` values resolved against the current directory; the current directory when none. */
export function workspaceRootsOption(parsed: ParsedArguments, cwd: string = process.cwd()): string[] {
  const given = parsed.values.get('workspace') ?? [];
  const roots = given.length === 0 ? [resolve(cwd)] : given.map((root) => resolve(cwd, root));
  for (const [index, root] of roots.entries()) {
    if (!isFilesystemRoot(root)) continue;
    const origin = given.length === 0 ? 'The current directory (the workspace when --workspace is not given)' : `--workspace ${JSON.stringify(given[index])}`;
    throw new UsageError(`openwork: ${filesystemRootRefusal(origin)}`);
  }
  return roots;
}
