import { parseFileChangeArtifact } from '@openwork/builtins';
import { CoreError } from '../errors/core-error.js';

/**
 * A `file_change` artifact (§8.4) as a unified diff — from the artifact alone, never from the disk,
 * so a reloaded session shows exactly the change that was made: `--- a/<path>` (`/dev/null` for a
 * created file), `+++ b/<path>`, then each hunk's `@@ -start,count +start,count @@` header and its
 * lines. The path is the one results showed (relative to the workspace when inside it).
 */
export function renderFileChange(artifact: unknown): string {
  const parsed = parseFileChangeArtifact(artifact);
  if (!parsed.ok) throw new CoreError('invalid_argument', `renderFileChange: ${parsed.message}`);
  const change = parsed.artifact.change;
  const lines = [change.kind === 'created' ? '--- /dev/null' : `--- a/${change.displayPath}`, `+++ b/${change.displayPath}`];
  for (const hunk of change.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines);
  }
  return `${lines.join('\n')}\n`;
}
