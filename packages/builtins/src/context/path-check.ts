import type { ToolExecutionError } from '@openwork/tools-contract';
import type { CheckedPath } from './checked-path.js';

/**
 * What `ToolSessionContext.resolvePath` answers (§6.2): the checked path, or the failure to hand
 * back as the tool's result — `permission_denied` with the denial text of architecture §3.5
 * (`sandboxDenied` for tiers 2, 3 and 5), `invalid_arguments` for a path that cannot mean
 * anything (empty, NUL byte, `~user`), `execution_failed` for one the disk does not have.
 */
export type PathCheck =
  | { readonly ok: true; readonly path: CheckedPath }
  | { readonly ok: false; readonly error: ToolExecutionError };
