import type { LandlockScope, SandboxAvailability, SandboxBackend, SandboxBackendKind, SandboxCommand, SandboxPolicy, WrappedCommand } from '@openwork/sandbox';

/**
 * The runtime's sandbox backend as every session sees it: the backend chosen at start, whose
 * self-check ran once (§3.4). `selfCheck()` answers with that one result, so the escalation
 * parameters of every toolset (§7.5) and whether bash may run (acceptance 10d) come from the
 * same decision, and no session pays for another check. Everything else is the backend's own.
 */
export class CheckedSandboxBackend implements SandboxBackend {
  readonly #backend: SandboxBackend;
  readonly #availability: SandboxAvailability;

  constructor(backend: SandboxBackend, availability: SandboxAvailability) {
    this.#backend = backend;
    this.#availability = Object.freeze({ ...availability });
  }

  get kind(): SandboxBackendKind {
    return this.#backend.kind;
  }

  /** The result of the runtime's start-up self-check. */
  get availability(): SandboxAvailability {
    return this.#availability;
  }

  selfCheck(): Promise<SandboxAvailability> {
    return Promise.resolve(this.#availability);
  }

  wrap(command: SandboxCommand, policy: SandboxPolicy): WrappedCommand {
    return this.#backend.wrap(command, policy);
  }

  /** Whether the backend scopes abstract sockets and signals with Landlock (bubblewrap, §3.7); undefined for others. */
  landlockScope(openworkHome: string): LandlockScope | undefined {
    const backend = this.#backend as SandboxBackend & { landlockScope?: (openworkHome: string) => LandlockScope };
    return backend.landlockScope?.(openworkHome);
  }

  /** Variables the backend adds to a sandboxed command's environment, when it has any (§7.9). */
  commandEnvironment(policy: SandboxPolicy): Readonly<Record<string, string>> {
    const backend = this.#backend as SandboxBackend & { commandEnvironment?: (policy: SandboxPolicy) => Readonly<Record<string, string>> };
    return backend.commandEnvironment?.(policy) ?? {};
  }
}
