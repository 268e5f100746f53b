import type { ProcessBackend, ProcessOutcome, ProcessSpawnOptions } from '@openwork/process-backend';
import type { SandboxAvailability, SandboxBackend, SandboxCommand, SandboxPolicy, WrappedCommand } from '@openwork/sandbox';

/** One `wrap` the sandbox performed: what it was asked to wrap, with which policy, and what it returned. */
export interface RecordedWrap {
  readonly command: SandboxCommand;
  readonly policy: SandboxPolicy;
  readonly argv: readonly string[];
  released: number;
}

/**
 * A real sandbox backend (bubblewrap in these tests) that records every `wrap` and counts the
 * `release()` calls of each wrapped command. `tamper` lets a test change the real argv (a runner
 * failure) — the command is still only ever started through here.
 */
export class RecordingSandboxBackend implements SandboxBackend {
  readonly wraps: RecordedWrap[] = [];
  readonly #inner: SandboxBackend;
  readonly #tamper: ((argv: readonly string[]) => readonly string[]) | undefined;

  constructor(inner: SandboxBackend, tamper?: (argv: readonly string[]) => readonly string[]) {
    this.#inner = inner;
    this.#tamper = tamper;
  }

  get kind(): SandboxBackend['kind'] {
    return this.#inner.kind;
  }

  selfCheck(): Promise<SandboxAvailability> {
    return this.#inner.selfCheck();
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    const wrapped = this.#inner.wrap(command, policy);
    const argv = Object.freeze([...(this.#tamper?.(wrapped.argv) ?? wrapped.argv)]);
    const record: RecordedWrap = { command, policy, argv, released: 0 };
    this.wraps.push(record);
    return {
      argv,
      ...(wrapped.sync === undefined ? {} : { sync: () => (wrapped.sync as NonNullable<WrappedCommand['sync']>)() }),
      ...(wrapped.reflect === undefined ? {} : { reflect: (paths: readonly string[]) => (wrapped.reflect as NonNullable<WrappedCommand['reflect']>)(paths) }),
      release: async () => {
        record.released += 1;
        return wrapped.release();
      },
    };
  }

  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    return this.#inner.commandEnvironment?.(policy) ?? {};
  }
}

/** One `spawn` the process backend performed. */
export interface RecordedSpawn {
  readonly argv: readonly string[];
  readonly options: ProcessSpawnOptions;
  outcome?: ProcessOutcome;
}

/** The real process backend, recording every spawn (argv, options and outcome). */
export class RecordingProcessBackend implements ProcessBackend {
  readonly spawns: RecordedSpawn[] = [];
  readonly #inner: ProcessBackend;

  constructor(inner: ProcessBackend) {
    this.#inner = inner;
  }

  async spawn(argv: readonly string[], options: ProcessSpawnOptions): Promise<ProcessOutcome> {
    const record: RecordedSpawn = { argv: [...argv], options };
    this.spawns.push(record);
    record.outcome = await this.#inner.spawn(argv, options);
    return record.outcome;
  }
}
