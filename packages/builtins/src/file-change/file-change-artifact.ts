import type { FileChange } from './file-change.js';

/** The artifact `kind` of a file change (§8.4). */
export const FILE_CHANGE_ARTIFACT_KIND = 'file_change';

/**
 * The `ToolArtifact` that `write` and `edit` attach to a result whose content changed (§8.4). It
 * goes to the host and the user interface, never to the model (§8.1). The change sits under
 * `change`, so that its own `kind` (`created` | `modified`) keeps the spec's name next to the
 * artifact's `kind`. A type alias, not an interface, so that it is assignable to `ToolArtifact`.
 */
export type FileChangeArtifact = {
  readonly kind: typeof FILE_CHANGE_ARTIFACT_KIND;
  readonly change: FileChange;
};
