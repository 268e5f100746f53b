import { escapePath, NodeFileSystem, unescapePath, WriteLocks, type AsyncFileSystem } from '@openwork/fs-backend';
import { NodeProcessBackend, type ProcessBackend } from '@openwork/process-backend';
import {
  canonicalizePathSync,
  checkAccess,
  createSandboxPolicy,
  resolveCheckedPath,
  selectSandboxBackend,
  type PathAccess,
  type PathIntent,
  type SandboxAvailability,
  type SandboxBackend,
  type SandboxPolicy,
} from '@openwork/sandbox';
import { ToolExecutionError } from '@openwork/tools-contract';
import { BackgroundTasks } from '../bash/background/background-tasks.js';
import type { BuiltinAgent } from '../registry/builtin-agent.js';
import { FileObservations } from '../observations/file-observations.js';
import { SpillDirectory } from '../spill/spill-directory.js';
import { BuiltinsError } from './builtins-error.js';
import { createCheckedPath, type CheckedPath } from './checked-path.js';
import { displayPath } from './display-path.js';
import { chooseSpelling } from './choose-spelling.js';
import { expandHome } from './expand-home.js';
import { localEnvironment } from './local-environment.js';
import type { DangerousCommandDecision } from '../bash/dangerous-command-gate.js';
import type { PathCheck } from './path-check.js';

/** Everything a `ToolSessionContext` is made of (§4). Core builds one per session. */
export interface ToolSessionContextOptions {
  /** Absolute; relative paths of the model resolve against it, never against the process cwd (§6.2). */
  readonly workingDirectory: string;
  /** Absolute workspace roots: paths inside are shown relative to them. Default `[workingDirectory]`. */
  readonly workspaceRoots?: readonly string[];
  /** Absolute home directory: what `~` means in a path (the real HOME is never read implicitly). */
  readonly homeDirectory: string;
  /** Absolute OpenWork home, default `<homeDirectory>/.openwork`; must match the policies core stamps. */
  readonly openworkHome?: string;
  /** Agent skill roots (hard-protected, like in the policy); used to report `protectedTarget` before a call (§6.1). */
  readonly skillRoots?: readonly string[];
  /** The kernel sandbox of this session (its self-check decides whether escalation parameters exist). */
  readonly sandbox: SandboxBackend;
  /** The complete environment of child processes (for a local session `localEnvironment`: the six of §4, proxy and CA settings, npm's non-credential configuration). */
  readonly environment: Readonly<Record<string, string>>;
  readonly filesystem: AsyncFileSystem;
  readonly processBackend: ProcessBackend;
  /** §8.2; without one, oversized results are cut without being saved. */
  readonly spill?: SpillDirectory;
  /** §7.4: pass the session's table when rebuilding a toolset, so observations carry over. */
  readonly observations?: FileObservations;
  /** §4 per-real-path write locks: share one per session with everything that writes (undo too). */
  readonly writeLocks?: WriteLocks;
  /** Background bash: the session's background tasks; pass the session's when rebuilding a context, so its tasks stay reachable. */
  readonly backgroundTasks?: BackgroundTasks;
  /** Background bash: the agent role whose toolset uses this context; an explorer reaches only the background tasks it started. Default `default`. */
  readonly agentRole?: BuiltinAgent;
  /**
   * Who decides on a dangerous command (docs/decisions/0104): the host's approver (a function), the
   * caller of the toolset (`'caller'`, as core does), or — absent — nobody, and bash refuses it.
   */
  readonly dangerousCommands?: DangerousCommandDecision;
}

/** What `ToolSessionContext.local` needs; everything else has a local default. */
export interface LocalSessionOptions extends Partial<Omit<ToolSessionContextOptions, 'workingDirectory' | 'spill'>> {
  readonly workingDirectory: string;
  /** Names the spill directory `<openwork home>/spill/<session-id>/`. Without it there is no spill directory. */
  readonly sessionId?: string;
  /** Where defaults are read from (default `process.env`): HOME, OPENWORK_HOME and the six variables of §4. */
  readonly processEnvironment?: Readonly<Record<string, string | undefined>>;
  /** More variables for commands besides the six and the proxy/CA settings (`localEnvironment`'s `pass`): names or `PREFIX_*`, never credentials. */
  readonly passEnvironment?: readonly string[];
}

/**
 * The session half of a tool call (§4): working directory and workspace roots, the sandbox
 * backend, the environment, the file-system and process backends, the spill directory, the
 * observation table and the write locks. It holds no sandbox mode, cancellation, call ID or
 * database: the policy arrives with every call (`call.sandboxPolicy`, §5) and `resolvePath`
 * takes it as an argument, so nothing can fall back to a session default.
 */
export class ToolSessionContext {
  readonly workingDirectory: string;
  readonly workspaceRoots: readonly string[];
  readonly homeDirectory: string;
  readonly openworkHome: string;
  readonly skillRoots: readonly string[];
  readonly sandbox: SandboxBackend;
  readonly environment: Readonly<Record<string, string>>;
  readonly filesystem: AsyncFileSystem;
  readonly processBackend: ProcessBackend;
  readonly spill: SpillDirectory | undefined;
  readonly observations: FileObservations;
  readonly writeLocks: WriteLocks;
  /** Background bash: `close()` it when the session ends — it kills every task still running. */
  readonly backgroundTasks: BackgroundTasks;
  /** Background bash: whose calls these are (the tasks they start carry it; an explorer sees only its own). */
  readonly agentRole: BuiltinAgent;
  readonly dangerousCommands: DangerousCommandDecision | undefined;
  #availability: Promise<SandboxAvailability> | undefined;
  #settledAvailability: SandboxAvailability | undefined;
  #protectionPolicy: SandboxPolicy | undefined;

  constructor(options: ToolSessionContextOptions) {
    this.workingDirectory = canonicalDirectory(options.workingDirectory, 'workingDirectory');
    this.workspaceRoots = Object.freeze(
      [...new Set((options.workspaceRoots ?? [options.workingDirectory]).map((root) => canonicalDirectory(root, 'workspace root')))],
    );
    this.homeDirectory = canonicalDirectory(options.homeDirectory, 'homeDirectory');
    this.openworkHome = canonicalDirectory(options.openworkHome ?? `${this.homeDirectory}/.openwork`, 'openworkHome');
    this.skillRoots = Object.freeze((options.skillRoots ?? []).map((root) => canonicalDirectory(root, 'skill root')));
    this.sandbox = options.sandbox;
    this.environment = Object.freeze({ ...options.environment });
    this.filesystem = options.filesystem;
    this.processBackend = options.processBackend;
    this.spill = options.spill;
    this.observations = options.observations ?? new FileObservations();
    this.writeLocks = options.writeLocks ?? new WriteLocks();
    this.backgroundTasks = options.backgroundTasks ?? new BackgroundTasks();
    this.agentRole = options.agentRole ?? 'default';
    this.dangerousCommands = options.dangerousCommands;
  }

  /**
   * §4 `ToolSessionContext::local`: a session on this machine. The environment keeps only PATH,
   * HOME, SHELL, LANG, LC_ALL and TMPDIR; the home directory is `HOME`; the OpenWork home is
   * `options.openworkHome`, else `OPENWORK_HOME`, else `~/.openwork`; the sandbox is the
   * platform's (`selectSandboxBackend`); the backends are the Node ones.
   */
  static local(options: LocalSessionOptions): ToolSessionContext {
    const source = options.processEnvironment ?? process.env;
    const homeDirectory = options.homeDirectory ?? source['HOME'];
    if (homeDirectory === undefined || homeDirectory === '') {
      throw new BuiltinsError('ToolSessionContext.local needs a home directory: pass homeDirectory or set HOME.');
    }
    const openworkHome = options.openworkHome ?? nonEmpty(source['OPENWORK_HOME']) ?? `${homeDirectory.replace(/\/+$/, '')}/.openwork`;
    const spill =
      options.sessionId === undefined
        ? undefined
        : new SpillDirectory({
            openworkHome: canonicalDirectory(openworkHome, 'openworkHome'),
            sessionId: options.sessionId,
            homeDirectory: canonicalDirectory(homeDirectory, 'homeDirectory'),
          });
    return new ToolSessionContext({
      workingDirectory: options.workingDirectory,
      homeDirectory,
      openworkHome,
      sandbox: options.sandbox ?? selectSandboxBackend(),
      environment: options.environment ?? localEnvironment(source, options.passEnvironment === undefined ? {} : { pass: options.passEnvironment }),
      filesystem: options.filesystem ?? new NodeFileSystem(),
      processBackend: options.processBackend ?? new NodeProcessBackend(),
      ...(options.workspaceRoots === undefined ? {} : { workspaceRoots: options.workspaceRoots }),
      ...(options.skillRoots === undefined ? {} : { skillRoots: options.skillRoots }),
      ...(spill === undefined ? {} : { spill }),
      ...(options.observations === undefined ? {} : { observations: options.observations }),
      ...(options.writeLocks === undefined ? {} : { writeLocks: options.writeLocks }),
      ...(options.backgroundTasks === undefined ? {} : { backgroundTasks: options.backgroundTasks }),
      ...(options.agentRole === undefined ? {} : { agentRole: options.agentRole }),
      ...(options.dangerousCommands === undefined ? {} : { dangerousCommands: options.dangerousCommands }),
    });
  }

  /** The sandbox backend's self-check, run once per context (§3.4); `finalize`'s `escalationAvailable` comes from it. */
  sandboxAvailability(): Promise<SandboxAvailability> {
    this.#availability ??= this.sandbox
      .selfCheck()
      .catch(
        (error: unknown): SandboxAvailability => ({ available: false, reason: `the sandbox self-check failed: ${error instanceof Error ? error.message : String(error)}` }),
      )
      .then((availability) => (this.#settledAvailability = availability));
    return this.#availability;
  }

  /**
   * The self-check's answer if it is already known (synchronous, for `prepare`, §6.1), else
   * `undefined`. A backend of kind `unavailable` is known to be unavailable without a check.
   */
  knownSandboxAvailability(): SandboxAvailability | undefined {
    if (this.#settledAvailability !== undefined || this.sandbox.kind !== 'unavailable') return this.#settledAvailability;
    return { available: false, reason: 'no kernel sandbox works here' };
  }

  /**
   * §6.2 `resolve_path(input, access, intent, policy)`: expand `~`/`~/…`, make the path absolute
   * against the working directory, remove `.`/`..` textually, canonicalise (`must-exist`: the
   * target; `may-create`: the deepest existing ancestor, refusing dangling links on the way), then
   * `checkAccess` the real path under `policy` — the policy stamped on this call. `tool` names the
   * tool in the retry hint of a denial (architecture §3.5). A name spelled with `\xNN` bytes (how
   * results show a name that is not UTF-8) means those bytes unless the text as written exists
   * (`chooseSpelling`).
   */
  async resolvePath(input: string, access: PathAccess, intent: PathIntent, policy: SandboxPolicy, tool: string): Promise<PathCheck> {
    const expanded = expandHome(input, this.homeDirectory);
    if (!expanded.ok) return failure('invalid_arguments', expanded.message);
    const spelled = await chooseSpelling(expanded.path, intent, this.workingDirectory);
    if (!spelled.ok) return failure('invalid_arguments', spelled.message);
    const result = await resolveCheckedPath(policy, spelled.path, { cwd: this.workingDirectory, intent, access, tool });
    switch (result.status) {
      case 'unresolvable':
        return failure(result.problem === 'empty' || result.problem === 'nul-byte' ? 'invalid_arguments' : 'execution_failed', escapePath(result.message));
      case 'denied':
        return {
          ok: false,
          error: new ToolExecutionError('permission_denied', escapePath(result.decision.message), { sandboxDenied: result.decision.sandboxDenied }),
        };
      case 'allowed':
        return {
          ok: true,
          path: createCheckedPath({
            path: result.resolved.path,
            input,
            displayPath: this.displayPath(result.resolved.path),
            access,
            intent,
            tier: result.resolved.tier,
          }),
        };
    }
  }

  /**
   * A path met while walking a checked directory without following symbolic links (list, grep,
   * glob): `parent` plus one entry `name`. Checked with `checkAccess` under `policy` like any
   * other path, so a credential directory inside a walked tree stays unreadable (acceptance 10b);
   * `undefined` when denied or when `name` is not a plain entry name.
   */
  walkedPath(parent: CheckedPath, name: string, policy: SandboxPolicy): CheckedPath | undefined {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) return undefined;
    const path = parent.path === '/' ? `/${name}` : `${parent.path}/${name}`;
    const decision = checkAccess(policy, path, parent.access, 'file-tool');
    if (!decision.allowed) return undefined;
    return createCheckedPath({
      path,
      input: path,
      displayPath: this.displayPath(path),
      access: parent.access,
      intent: 'must-exist',
      tier: decision.tier,
    });
  }

  /** How a real path is shown in results: relative to the workspace when inside it (§7.2), else absolute. */
  displayPath(realPath: string): string {
    return displayPath(realPath, this.workspaceRoots);
  }

  /**
   * §6.1 `protected_target`: the denial text when writing `input` would touch a hard-protected
   * path (tier 1 — the OpenWork home, skill roots, `<root>/.openwork`), which no grant can unlock;
   * `undefined` otherwise. Synchronous (it runs in `prepare`); tier 1 does not depend on the mode
   * or the grants, so no call policy is needed.
   */
  protectedTarget(input: string): string | undefined {
    const expanded = expandHome(input, this.homeDirectory);
    if (!expanded.ok) return undefined;
    // Exact file names: the call may mean the path as written or its `\xNN` spelling decoded; either protected counts.
    for (const candidate of [expanded.path, unescapePath(expanded.path)]) {
      if (candidate === undefined) continue;
      const resolution = canonicalizePathSync(candidate, { cwd: this.workingDirectory, intent: 'may-create' });
      if (!resolution.ok) continue;
      const decision = checkAccess(this.#tierOnePolicy(), resolution.path, 'write', 'file-tool');
      if (!decision.allowed && decision.tier === 'hard-protected') return escapePath(decision.message);
    }
    return undefined;
  }

  #tierOnePolicy(): SandboxPolicy {
    this.#protectionPolicy ??= createSandboxPolicy({
      mode: 'full-access',
      workspaceRoots: this.workspaceRoots,
      homeDirectory: this.homeDirectory,
      openworkHome: this.openworkHome,
      skillRoots: this.skillRoots,
      tempRoots: [],
    });
    return this.#protectionPolicy;
  }
}

function failure(code: 'invalid_arguments' | 'execution_failed', message: string): PathCheck {
  return { ok: false, error: new ToolExecutionError(code, message) };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Absolute and canonical (realpath of the deepest existing ancestor); a relative path is a programmer error. */
function canonicalDirectory(path: string, what: string): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new BuiltinsError(`ToolSessionContext ${what} must be an absolute path, got ${JSON.stringify(path)}.`);
  }
  const resolution = canonicalizePathSync(path, { cwd: '/', intent: 'may-create' });
  if (!resolution.ok) throw new BuiltinsError(`ToolSessionContext ${what} ${JSON.stringify(path)}: ${resolution.message}`);
  return resolution.path;
}
