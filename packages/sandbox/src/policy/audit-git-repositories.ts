import * as fs from 'node:fs';
import * as path from 'node:path';
import { layoutOf } from './check-access.js';
import { classifyGitDirectory } from './classify-git-directory.js';
import { describeUntrustedGitConfig, readGitConfigFile } from './git-config-entries.js';
import { gitRedirectionNames } from './find-git-redirections.js';
import { gitDirectoryOf, kindOf } from './git-files.js';
import type { GitScanStatistics } from './git-files.js';
import { isInsideAnyScopedPath } from './is-inside-scoped-path.js';
import { layoutAllows } from './layout-allows.js';
import type { SandboxLayout } from './sandbox-layout.js';
import { readGitlinks } from './read-gitlinks.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/** A repository git would visit from a workspace root that held configuration able to run a program. */
export interface GitAuditFinding {
  /** `moved`: a repository moved aside; `unchecked`: repositories git may recurse into that the audit could not reach. */
  readonly kind: 'moved' | 'unchecked';
  /** The `.git` entry (folder, git file or link) of the repository, in the work tree of a gitlink. */
  readonly repository: string;
  /** The work tree whose index records the gitlink (git recurses from there). */
  readonly linkedFrom: string;
  /** What it holds (`config sets core.fsmonitor`, `hook pre-commit`, …). */
  readonly reasons: readonly string[];
  /** Where the `.git` entry was moved, so that no git finds it; undefined if it could not be moved. */
  readonly movedTo: string | undefined;
}

export interface AuditGitRepositoriesOptions {
  /** Counts what the audit read (tests prove it bounded with it). */
  readonly statistics?: GitScanStatistics;
}

// Wider than the policy's scan (which protects each repository it finds with mounts): what the
// audit cannot reach it reports, since git would recurse there unchecked (README known limits).
const maximumRepositoryDepth = 8;
const maximumRepositories = 1024;
const maximumAuditedGitlinks = 4096;
const quarantineSuffix = '.openwork-quarantine';

function realPath(file: string): string | undefined {
  try {
    return fs.realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** One audit after one call; each method is one named step. */
class GitRepositoryAudit {
  readonly findings: GitAuditFinding[] = [];
  readonly #policy: SandboxPolicy;
  #placeBased: SandboxLayout | undefined;
  readonly #statistics: GitScanStatistics | undefined;
  readonly #seen = new Set<string>();

  constructor(policy: SandboxPolicy, statistics: GitScanStatistics | undefined) {
    this.#policy = policy;
    this.#statistics = statistics;
  }

  /**
   * Whether this call could not change what the git directory says about programs: its config,
   * hooks and redirections were protected (they are the user's, or were audited after the call
   * that made them).
   */
  wasProtected(gitDirectory: string): boolean {
    const placed = this.placeBasedLayout();
    return gitRedirectionNames.every((name) => !layoutAllows(placed, path.posix.join(gitDirectory, name), 'write', 'process'));
  }

  /**
   * What the kernel enforcer that ran the call protected: the layout's places, without the kind
   * rules at any depth (architecture §3.10), which the mount-based renderer does not enforce. So a
   * nested repository the fence protects by kind is still audited after a mount-based call.
   */
  placeBasedLayout(): SandboxLayout {
    if (this.#placeBased === undefined) {
      const { sensitiveKinds: _kinds, ...places } = layoutOf(this.#policy);
      this.#placeBased = Object.freeze(places);
    }
    return this.#placeBased;
  }

  /** The repository git uses in `root`: the first `.git` from the root upwards. */
  visitRepositoryOf(root: string): void {
    for (let directory = root; ; directory = path.posix.dirname(directory)) {
      const gitDirectory = gitDirectoryOf(path.posix.join(directory, '.git'), this.#statistics);
      if (gitDirectory !== undefined) return this.visitGitlinks(directory, gitDirectory, 0);
      if (kindOf(path.posix.join(directory, '.git')) !== 'missing' || directory === '/') return;
    }
  }

  /** Every populated gitlink of the repository's index: git recurses into it (`status`, `diff`, `fetch`). */
  visitGitlinks(workTree: string, gitDirectory: string, depth: number): void {
    const real = realPath(gitDirectory);
    if (real === undefined || this.#seen.has(real)) return;
    // The object format decides how the index is read. A config git would refuse fails closed:
    // the repositories it links to are reported unchecked, and still visited as far as it can tell.
    const config = readGitConfigFile(path.posix.join(real, 'config'), this.#statistics);
    const format = config.entries.find((entry) => entry.section === 'extensions' && entry.subsection === undefined && entry.name === 'objectformat');
    const gitlinks = readGitlinks(real, format?.value.toLowerCase() === 'sha256' ? 32 : 20, this.#statistics, maximumAuditedGitlinks);
    if (!config.trusted) {
      const why = `its config cannot be read as git reads it (${describeUntrustedGitConfig(config)}), so which repositories it links to is not known`;
      this.findings.push({ kind: 'unchecked', repository: path.posix.join(workTree, '.git'), linkedFrom: workTree, reasons: [why], movedTo: undefined });
    }
    if (gitlinks.paths.length === 0 && gitlinks.complete) return;
    if (!gitlinks.complete) {
      const why = `its index could not be read whole (over ${maximumAuditedGitlinks} gitlinks, over 64 MB, or a format not understood)`;
      this.findings.push({ kind: 'unchecked', repository: path.posix.join(workTree, '.git'), linkedFrom: workTree, reasons: [why], movedTo: undefined });
    }
    // Beyond the bounds, a repository the call could write is moved aside unchecked: git would recurse into it.
    const beyond = depth >= maximumRepositoryDepth || this.#seen.size >= maximumRepositories;
    this.#seen.add(real);
    for (const link of gitlinks.paths) {
      const child = path.posix.join(workTree, link);
      if (child.startsWith(`${workTree}/`)) this.visitLinkedRepository(workTree, child, depth, beyond);
    }
  }

  /** A gitlink's repository: trusted if this call could not change it, else checked and, if need be, moved away. */
  visitLinkedRepository(linkedFrom: string, child: string, depth: number, beyondBounds: boolean): void {
    const dotGit = path.posix.join(child, '.git');
    const gitDirectory = gitDirectoryOf(dotGit, this.#statistics);
    const real = gitDirectory === undefined ? undefined : realPath(gitDirectory);
    if (real === undefined) return;
    if (!this.wasProtected(real)) {
      const reasons = beyondBounds
        ? [`it lies ${depth + 1} repositories deep or beyond the first ${maximumRepositories}, where it is not checked`]
        : classifyGitDirectory(real, this.#statistics);
      if (reasons.length > 0) {
        this.findings.push({ kind: 'moved', repository: dotGit, linkedFrom, reasons, movedTo: this.quarantine(dotGit) });
        return;
      }
    }
    if (!beyondBounds) this.visitGitlinks(child, real, depth + 1);
  }

  /**
   * Move the `.git` entry aside (nothing is deleted: the user can inspect it and move it back),
   * only inside a writable root of the call, where the command could have put it.
   */
  quarantine(dotGit: string): string | undefined {
    const parent = realPath(path.posix.dirname(dotGit));
    if (parent === undefined) return undefined;
    const roots = [...this.#policy.workspaceRoots, ...this.#policy.extraWritableRoots, ...this.#policy.tempRoots].map((root) => ({ path: root, scope: 'subtree' as const }));
    if (!isInsideAnyScopedPath(parent, roots)) return undefined;
    for (let attempt = 1; attempt <= 20; attempt += 1) {
      const target = path.posix.join(parent, `.git${quarantineSuffix}${attempt === 1 ? '' : `-${attempt}`}`);
      if (kindOf(target) !== 'missing') continue;
      try {
        fs.renameSync(path.posix.join(parent, '.git'), target);
        return target;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
}

/**
 * After a sandboxed call (issue 23 item 1, architecture §3.7 "planted code"): every repository
 * git would visit from a workspace root through gitlinks — submodules, embedded repositories,
 * recursively — whose configuration, hooks or redirections the call could write, is checked with
 * `classifyGitDirectory`; one that could make the user's git run a program has its `.git` moved to
 * `.git.openwork-quarantine` and is reported. Repositories the call could not change are trusted.
 * Bounded: one cached index read per repository, at most 256 repositories, 4 levels deep.
 */
export function auditGitRepositories(policy: SandboxPolicy, options: AuditGitRepositoriesOptions = {}): GitAuditFinding[] {
  const audit = new GitRepositoryAudit(policy, options.statistics);
  for (const root of policy.workspaceRoots) audit.visitRepositoryOf(root);
  return audit.findings;
}

/** The text the model gets for a finding (appended to the call's result). */
export function formatGitAuditFinding(finding: GitAuditFinding): string {
  if (finding.kind === 'unchecked') {
    return `[sandbox: the repositories that ${finding.repository} links to as gitlinks were not all checked after this command: ${finding.reasons.join(', ')}. git run by the user outside the sandbox recurses into them; tell the user before they run git status or git diff in ${finding.linkedFrom}.]`;
  }
  const what = finding.reasons.slice(0, 5).join(', ') + (finding.reasons.length > 5 ? `, and ${finding.reasons.length - 5} more` : '');
  const action =
    finding.movedTo === undefined
      ? `could not be moved aside; tell the user not to run git in ${finding.linkedFrom} before removing ${finding.repository}`
      : `was moved to ${finding.movedTo}`;
  return `[sandbox: ${finding.repository} ${action}. It is a repository recorded as a gitlink in the index of ${finding.linkedFrom}, so git run by the user outside the sandbox would recurse into it and run what it holds (${what}). A repository a command creates may hold plain configuration only; move it back only if the user asks to.]`;
}
