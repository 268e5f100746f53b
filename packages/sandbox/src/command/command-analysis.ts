/**
 * Why a command was flagged (architecture §3.6). One rule per kind of irreversible or
 * system-wide harm, so core and the user see the kind of risk, not a regex that happened to match.
 */
export type DangerousCommandRule =
  /**
   * `rm -r`, `find -delete`, `rsync --delete` of `/`, a top-level or system directory, home or a personal
   * folder in it, a workspace root or an ancestor of one (also after `cd`), or `rm --no-preserve-root`.
   */
  | 'recursive-delete'
  /** A recursive delete whose target is entirely dynamic (`rm -rf "$X"/`): it may be `/` when the variable is empty. */
  | 'recursive-delete-unknown-target'
  /** `git push --force`, `-f`, `--force-with-lease`, or a `+refspec`: rewrites shared history. */
  | 'git-force-push'
  /** `git push --delete`, `git push origin :branch`, `--prune`, `--mirror`: deletes refs on the remote. */
  | 'git-remote-delete'
  /** `git reset --hard`: discards uncommitted work. */
  | 'git-hard-reset'
  /**
   * Local git commands that throw work away or the history that could bring it back: `checkout -- .`,
   * `restore .`, `branch -D`, `stash clear`, `filter-branch`, `reflog expire --expire=now`, `gc --prune=now`,
   * `update-ref -d`, `worktree remove --force`, `branch -M` over a branch, `submodule deinit -f`, `repack -a -d`.
   */
  | 'git-discard-work'
  /**
   * Removing a repository's history from the file system: `rm -r` of `.git` (any spelling: `./.git/`,
   * `.g*`, through `cd .git`), of `.git/*` or of its `objects`, `refs`, `logs`, `modules` or `lfs`
   * folders, `rm` of `.git/packed-refs` or a file inside those, and `find` that deletes them
   * (`find . -name .git -exec rm -rf {} +`, `find .git/objects -delete`, `find . -path '*.git/*' -delete`).
   */
  | 'git-history-delete'
  /** `git clean -f` with `-d`, `-x` or `-X`: deletes untracked directories or ignored files. */
  | 'git-clean'
  /** A download piped or substituted into an interpreter (`curl … | sh`, `bash <(curl …)`), or saved and then run (`curl -o i.sh … && bash i.sh`). */
  | 'remote-script'
  /** `mkfs*`, `mke2fs`, `mkswap`, `wipefs`, and partition editors (`fdisk`, `sfdisk`, `parted`…): erases a device. */
  | 'format-filesystem'
  /** `dd of=/dev/…`, `cp`/`tee` onto a device, or a redirection into a device that is not a harmless sink like `/dev/null`. */
  | 'device-write'
  /** `mv` of `/`, a system directory, home, a personal folder in it or a workspace root. */
  | 'move-critical'
  /** `crontab -r`: deletes every scheduled job of the user. */
  | 'crontab-remove'
  /** `docker system prune -af --volumes`, `terraform destroy -auto-approve`, `kubectl delete ns`, `aws s3 rm --recursive`… */
  | 'infrastructure-wipe'
  /** A function that calls itself in a pipe or in the background (`:(){ :|:& };:`), or an endless loop that starts background jobs. */
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
