import type { SandboxCommand } from '../backend/sandbox-backend.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';

/**
 * One mount the staged-writes helper makes inside the sandbox, in order, before the command runs
 * (`stage-mount-listing.ts`). Every path is absolute, as the sandbox sees it.
 */
export type StageMount =
  /** A writable root staged in an overlay: reads see `lower`, writes land in `upper` (on the host). `work` is overlayfs' scratch folder, on the same file system as `upper`. */
  | { readonly kind: 'overlay'; readonly target: string; readonly lower: string; readonly upper: string; readonly work: string }
  /**
   * `target` shown read-only through an overlay of `lowers` (the first on top), no upper layer: a
   * folder that would hold credentials, with placeholders over the names the user may create later.
   */
  | { readonly kind: 'overlay-readonly'; readonly target: string; readonly lowers: readonly string[] }
  /** Not a mount: a whiteout (character device 0/0) at `target`, in a layer of an `overlay-readonly` made after it. */
  | { readonly kind: 'whiteout'; readonly target: string }
  /** An empty read-only folder nobody may enter, over `target`: masks a credential folder, hides the staging folder. */
  | { readonly kind: 'readonly-empty'; readonly target: string }
  /** /dev/null over `target`: masks a credential file or a host socket. */
  | { readonly kind: 'null-device'; readonly target: string }
  /** `source` bound over `target` with the mounts inside it: re-exposes an allowed socket, places a mask prepared elsewhere. */
  | { readonly kind: 'bind'; readonly source: string; readonly target: string }
  /** Not a mount: enter `target` as the working folder (again, through the overlays made before). */
  | { readonly kind: 'chdir'; readonly target: string };

/** Characters overlayfs' option parser reads as syntax: `,` between options, `:` between lower layers, `\` escapes, `=` between a key and its value. */
const overlayOptionSyntax = /[,:\\=]/;

function checkedPath(mount: StageMount, role: string, value: string): string {
  if (value.includes('\0')) throw new SandboxConfigurationError(`the ${role} of a staged ${mount.kind} mount contains a NUL byte: ${JSON.stringify(value)}`);
  if (!value.startsWith('/')) throw new SandboxConfigurationError(`the ${role} of a staged ${mount.kind} mount is not an absolute path: ${JSON.stringify(value)}`);
  return value;
}

/** A path that goes inside the overlay's option string, where `,` `:` `\` `=` would change what the kernel reads. */
function optionPath(mount: StageMount, role: string, value: string): string {
  checkedPath(mount, role, value);
  const found = overlayOptionSyntax.exec(value);
  if (found !== null) {
    throw new SandboxConfigurationError(
      `the ${role} of a staged overlay (${JSON.stringify(value)}) contains ${JSON.stringify(found[0])}, which overlayfs would read as option syntax; such a folder cannot be staged`,
    );
  }
  return value;
}

/** The helper's letter and operands for `mount`. */
function operation(mount: StageMount): [string, ...string[]] {
  switch (mount.kind) {
    case 'overlay': {
      const options = `userxattr,lowerdir=${optionPath(mount, 'lower folder', mount.lower)},upperdir=${optionPath(mount, 'upper folder', mount.upper)},workdir=${optionPath(mount, 'work folder', mount.work)}`;
      return ['O', checkedPath(mount, 'target', mount.target), options];
    }
    case 'overlay-readonly':
      return ['O', checkedPath(mount, 'target', mount.target), `userxattr,lowerdir=${mount.lowers.map((lower) => optionPath(mount, 'lower folder', lower)).join(':')}`];
    case 'whiteout':
      return ['W', checkedPath(mount, 'target', mount.target)];
    case 'readonly-empty':
      return ['T', checkedPath(mount, 'target', mount.target)];
    case 'null-device':
      return ['N', checkedPath(mount, 'target', mount.target)];
    case 'bind':
      return ['B', checkedPath(mount, 'source', mount.source), checkedPath(mount, 'target', mount.target)];
    case 'chdir':
      return ['C', checkedPath(mount, 'target', mount.target)];
    default:
      throw new SandboxConfigurationError(`unknown staged mount kind ${JSON.stringify((mount as { kind?: unknown }).kind)}`);
  }
}

/**
 * `command` run through the staged-writes mount helper: `helper <ops> <operands…> <program>
 * <args…>`, one letter of `<ops>` per mount of `mounts`, in order, each followed by exactly its
 * operands, so the program is always where the helper looks for it (an empty `<ops>` argument
 * when there is nothing to mount). The helper calls `execve`, which does not search `PATH`: a
 * bare program name goes through `/bin/sh -c 'exec "$0" "$@"'`, as with the Landlock helper.
 * Throws `SandboxConfigurationError` for an empty argv, a relative path or one with a NUL byte,
 * or an overlay folder whose name overlayfs would parse as options.
 */
export function stagedCommand(helperPath: string, mounts: readonly StageMount[], command: SandboxCommand): SandboxCommand {
  const [program] = command.argv;
  if (program === undefined || program === '') throw new SandboxConfigurationError('the command argv is empty');
  let letters = '';
  const operands: string[] = [];
  for (const mount of mounts) {
    const [letter, ...rest] = operation(mount);
    letters += letter;
    operands.push(...rest);
  }
  const argv = program.includes('/') ? command.argv : ['/bin/sh', '-c', 'exec "$0" "$@"', ...command.argv];
  return { ...command, argv: [helperPath, letters, ...operands, ...argv] };
}
