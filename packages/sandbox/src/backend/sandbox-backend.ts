import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import type { StagedApplyReport } from '../staging/staged-writes.js';

/** Which kernel sandbox a backend drives. */
export type SandboxBackendKind = 'seatbelt' | 'bubblewrap' | 'unavailable';

/** Result of a backend's start-up self-check (§3.4): unavailable ⇒ bash never runs. */
export type SandboxAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string };

/** The command to wrap: argv of the program, and the working directory it will run in. */
export interface SandboxCommand {
  readonly argv: readonly string[];
  readonly cwd: string;
}

/**
 * The argv to spawn instead of the original one. `release()` must be called once the process has
 * exited (whatever the outcome): a backend that stages writes (bubblewrap) applies then what the
 * rules allow and removes the call's staging folder; until then nothing the command wrote is on
 * the host.
 */
export interface WrappedCommand {
  readonly argv: readonly string[];
  /**
   * Resolves with what the model should be told about the call's after-effects (changes the rules
   * refused to apply) and, where writes are staged, what was applied, or with nothing.
   */
  release(): Promise<SandboxReleaseReport | void>;
  /**
   * Backends that stage writes (architecture §3.10): applies, while the command still runs, what it
   * has written so far and the rules allow (a long-running task's output reaches the host without
   * waiting for its end). The command keeps seeing its own writes. Refusals are reported by
   * `release()`, once.
   */
  sync?(): Promise<SandboxReleaseReport>;
  /**
   * Backends that stage writes: host paths the file tools have just changed, shown to the running
   * command through its overlay, so that a watcher inside it sees the change (an overlay does not
   * pass on changes made to its lower layer). Paths outside the command's writable folders, or a
   * command that has ended, are ignored.
   */
  reflect?(paths: readonly string[]): Promise<void>;
}

/** What `release()` did that the model must know: one text per finding, to append to the result. */
export interface SandboxReleaseReport {
  readonly notices: readonly string[];
  /**
   * Where the backend stages writes (bubblewrap, architecture §3.10): what the command's writes
   * did to the host once judged — the changes applied (with their bytes for undo while the budget
   * lasts), the ones refused and why. Absent where writes go straight to the host (Seatbelt).
   */
  readonly staged?: StagedApplyReport;
}

/**
 * A kernel sandbox. It only rewrites argv (spec §4: it never spawns the command itself);
 * `ProcessBackend` spawns. `selfCheck` may run a trivial command to prove the sandbox works.
 */
export interface SandboxBackend {
  readonly kind: SandboxBackendKind;
  selfCheck(): Promise<SandboxAvailability>;
  /** Throws `SandboxUnavailableError` on a backend that is not available. */
  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand;
  /**
   * Variables to add to the environment of a command wrapped for `policy` (spec §7.9
   * `SandboxEnvironment::bash_environment()`): the caller's environment first, these on top.
   * Optional; a backend without it adds nothing.
   */
  commandEnvironment?(policy: SandboxPolicy): Readonly<Record<string, string>>;
}
