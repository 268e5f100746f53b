import type { SessionPolicyOptions } from '@openwork/builtins';
import type { AsyncFileSystem } from '@openwork/fs-backend';
import type { ProcessBackend } from '@openwork/process-backend';
import type { SandboxBackend } from '@openwork/sandbox';
import type { SessionStore } from '@openwork/session-store';
import type { AgentModelSource, SubAgentOptions } from '../agents/sub-agent-options.js';
import type { Approver } from '../call/approval.js';

/** Sandbox policy settings of every session besides its mode and a call's grants (architecture §3). */
export type RuntimePolicyOptions = Omit<SessionPolicyOptions, 'mode' | 'grants'>;

/** What `createRuntime` needs. */
export interface RuntimeOptions {
  /**
   * The OpenWork home (`~/.openwork` for a user; a temp folder in tests): spill files live in
   * `<home>/spill/<session-id>/`, and the whole folder is hard-protected from tools (tier 1).
   * Created when missing.
   */
  readonly home: string;
  /** Where sessions and messages are kept. The runtime uses it and never closes it: the host does. */
  readonly store: SessionStore;
  /** The kernel sandbox; default the platform's (`selectSandboxBackend`). Its self-check runs once, at start. */
  readonly sandboxBackend?: SandboxBackend;
  /** The user's home directory: what `~` means and where credentials live. Default: `HOME` of this process. */
  readonly homeDirectory?: string;
  /** Agent skill roots; hard-protected like the OpenWork home. */
  readonly skillRoots?: readonly string[];
  /**
   * The environment of commands. Default: PATH, SHELL, LANG, LC_ALL, TMPDIR of this process, HOME =
   * `homeDirectory` (§4), and its proxy and CA settings and npm's non-credential configuration
   * (`localEnvironment`, docs/decisions/0102), never a credential.
   */
  readonly environment?: Readonly<Record<string, string>>;
  /** Without `environment`: more variables of this process for commands (names or `PREFIX_*`); a credential name is refused. */
  readonly passEnvironment?: readonly string[];
  /** Temp roots, extra writable roots, protected lists, network (`createSandboxPolicy` options). */
  readonly sandboxPolicy?: RuntimePolicyOptions;
  /**
   * Whether commands (bash) of every session reach the network: `'allow'` (default) as unsandboxed,
   * `'none'` not at all (bubblewrap `--unshare-net`, Seatbelt without network rules); under `'none'` a
   * failed lookup or connection says so in the result. The same as `sandboxPolicy.network`
   * (docs/decisions/0101-network-switch.md).
   */
  readonly network?: 'allow' | 'none';
  /** Asks the user about calls that need approval, when a turn or a call brings no approver of its own. */
  readonly approver?: Approver;
  /** Default: the Node file system of `@openwork/fs-backend`. */
  readonly filesystem?: AsyncFileSystem;
  /** Default: the Node process backend of `@openwork/process-backend`. */
  readonly processBackend?: ProcessBackend;
  /**
   * The model of child agents by role (architecture §4). With it, root sessions get `agent_send`,
   * `agent_await` and `agent_list`, and this runtime executes child runs; without it, the tools
   * are not offered (`Runtime.subAgents` says why) and cut-off children are marked `interrupted`.
   */
  readonly agentModels?: AgentModelSource;
  /** Limits and leases of child agents (at most 4 running, depth 2, 30 s leases by default). */
  readonly agents?: SubAgentOptions;
}
