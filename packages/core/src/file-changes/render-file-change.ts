import { parseFileChangeArtifact, type FileChange } from '@openwork/builtins';
import { revealHiddenCharacters } from '@openwork/tools-contract';
import { CoreError } from '../errors/core-error.js';

export interface RenderFileChangeOptions {
  /**
   * For a person reading it on a terminal (architecture §3.9): the path and every line go through
   * `revealHiddenCharacters` (tabs kept in lines), so escape sequences, `\r` and bidirectional
   * overrides written by the model show as `\x1b`, `\r`, `\u202e` and cannot redraw the screen
   * or reorder what is read. The result is then for reading, not for `patch`. Default `false`.
   */
  readonly revealHiddenCharacters?: boolean;
}

/** A diff line's content as shown to a person: hidden characters revealed, tabs kept as they are. */
function revealLine(line: string): string {
  return line.split('\t').map(revealHiddenCharacters).join('\t');
}

/**
 * A `file_change` artifact (§8.4) as a unified diff — from the artifact alone, never from the disk,
 * so a reloaded session shows exactly the change that was made: `--- a/<path>` (`/dev/null` for a
 * created file), `+++ b/<path>` (`/dev/null` for a deleted one), then each hunk's `@@ -start,count +start,count @@` header and its
 * lines. The path is the one results showed (relative to the workspace when inside it).
 * An empty side of a hunk names the line before it, as GNU diff writes it (`@@ -0,0 +1,3 @@` for a
 * created file, `+4,0` for lines removed after line 4): GNU `patch` and `git apply` both take it.
 */
export function renderFileChange(artifact: unknown, options: RenderFileChangeOptions = {}): string {
  const parsed = parseFileChangeArtifact(artifact);
  if (!parsed.ok) throw new CoreError('invalid_argument', `renderFileChange: ${parsed.message}`);
  const change = parsed.artifact.change;
  const reveal = options.revealHiddenCharacters === true;
  const shownPath = reveal ? revealHiddenCharacters(change.displayPath) : change.displayPath;
  const lines = [change.kind === 'created' ? '--- /dev/null' : `--- a/${shownPath}`, change.kind === 'deleted' ? '+++ /dev/null' : `+++ b/${shownPath}`];
  const note = noteOf(change, reveal);
  if (note !== undefined) return `${[...lines, note].join('\n')}\n`;
  for (const hunk of change.hunks) {
    lines.push(`@@ -${rangeOf(hunk.oldStart, hunk.oldLines)} +${rangeOf(hunk.newStart, hunk.newLines)} @@`, ...(reveal ? hunk.lines.map(revealLine) : hunk.lines));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What stands for the hunks of a change without text contents (a bash command's change,
 * architecture §3.10): a folder, a link and its target, or a file whose contents were not kept —
 * in words, as git says "Binary files … differ".
 */
function noteOf(change: FileChange, reveal: boolean): string | undefined {
  const shown = (text: string) => (reveal ? revealHiddenCharacters(text) : text);
  const mode = (bits: number | undefined) => (bits === undefined ? '' : ` (mode ${bits.toString(8).padStart(4, '0')})`);
  switch (change.entry ?? 'file') {
    case 'directory':
      return `# folder ${change.kind}${mode(change.kind === 'deleted' ? change.beforeMode : change.mode)}`;
    case 'symlink': {
      const before = change.beforeTarget === undefined ? '' : ` was -> ${shown(change.beforeTarget)}`;
      const after = change.afterTarget === undefined ? '' : ` -> ${shown(change.afterTarget)}`;
      return `# symbolic link ${change.kind}${before}${after}`;
    }
    case 'file': {
      if (change.unrecorded === undefined) return undefined;
      const size = change.size === undefined ? '' : `, ${change.size} bytes`;
      const hash = change.afterHash ?? change.beforeHash;
      const why = change.unrecorded === 'binary' ? 'binary file' : change.unrecorded === 'too_large' ? 'file larger than 1 MiB' : 'contents not recorded';
      return `# ${why} ${change.kind}${size}${mode(change.kind === 'deleted' ? change.beforeMode : change.mode)}${hash === null ? '' : `, sha256 ${hash}`}`;
    }
  }
}

/** `start,count` of one side of a hunk; an empty side starts at the line before it (unified format). */
function rangeOf(start: number, count: number): string {
  return count === 0 ? `${Math.max(0, start - 1)},0` : `${start},${count}`;
}
