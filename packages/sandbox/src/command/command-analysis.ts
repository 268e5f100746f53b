/**
 * Why a command was flagged (architecture §3.6). One rule per kind of irreversible or
 * system-wide harm, so core and the user see the kind of risk, not a regex that happened to match.
 */
export type DangerousCommandRule =
  /** `rm -r`, `find -delete` of `/`, a top-level directory, home, a workspace root or an ancestor of one, or `rm --no-preserve-root`. */
  | 'recursive-delete'
  /** A recursive delete whose target is entirely dynamic (`rm -rf "$X"/`): it may be `/` when the variable is empty. */
  | 'recursive-delete-unknown-target'
  /** `git push --force`, `-f`, `--force-with-lease`, or a `+refspec`: rewrites shared history. */
  | 'git-force-push'
  /** `git reset --hard`: discards uncommitted work. */
  | 'git-hard-reset'
  /** `git clean -f` with `-d`, `-x` or `-X`: deletes untracked directories or ignored files. */
  | 'git-clean'
  /** A download piped or substituted into an interpreter (`curl … | sh`, `bash <(curl …)`). */
  | 'remote-script'
  /** `mkfs*`, `mke2fs`, `mkswap`, `wipefs`: formats a device. */
  | 'format-filesystem'
  /** `dd of=/dev/…` or a redirection into a device that is not a harmless sink like `/dev/null`. */
  | 'device-write'
  /** A function that calls itself in a pipe or in the background (`:(){ :|:& };:`). */
  | 'fork-bomb'
  /** `chmod -R` to a world-writable mode, or `chmod -R` / `chown -R` / `chgrp -R` of `/`, home or another critical directory. */
  | 'recursive-permission-change'
  /** `sudo`, `doas`, `su`, `pkexec`, `run0`: runs outside the user's own privileges. */
  | 'privilege-escalation'
  /** `shutdown`, `reboot`, `halt`, `poweroff` and their `systemctl`/`init` forms. */
  | 'system-power'
  /** `kill … -1`, `pkill`/`killall` of every process of a user or of every name. */
  | 'kill-all-processes'
  /** The command could not be parsed, or nests `bash -c`/`eval` too deeply to analyse. */
  | 'unparseable';

/** One reason to ask the user before running a command. */
export interface CommandFinding {
  readonly rule: DangerousCommandRule;
  /** The offending simple command (or pipeline / statement) as written, for the approval prompt. */
  readonly command: string;
  /** Model- and user-facing: what would happen and what to do instead. */
  readonly reason: string;
}

/** The result of `analyzeCommand`: `dangerous` is true exactly when `findings` is non-empty. */
export interface CommandAnalysis {
  readonly dangerous: boolean;
  readonly findings: readonly CommandFinding[];
}

/**
 * Optional facts about where the command will run, so relative and workspace targets can be judged.
 * Without them, `.`/`..`/`*` are judged against the workspace root, because bash always starts
 * there (§7.9), and home is recognised only as `~`, `$HOME`, `/root`, `/home/<user>` or `/Users/<user>`.
 */
export interface CommandAnalysisContext {
  /** Absolute workspace roots; deleting one of them (or an ancestor) is flagged. */
  readonly workspaceRoots?: readonly string[];
  /** Absolute home directory, used for `~` and `$HOME`. */
  readonly homeDirectory?: string;
  /** Absolute working directory of the command; defaults to the first workspace root (§7.9). */
  readonly cwd?: string;
}
