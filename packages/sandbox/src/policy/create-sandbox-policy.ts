import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalRoot, entryLocation, protectedLocations, requireAbsolute } from './canonical-root.js';
import { canonicalizePathSync } from './canonicalize-path.js';
import {
  credentialHomeDefaultsUnguardedWhenMissing,
  credentialRuntimeDefaults,
  defaultCredentialHomeEntries,
  defaultSensitiveHomeEntries,
  defaultSensitiveRootEntries,
  openworkHomeSecretDefaults,
} from './default-protected-paths.js';
import { executableSearchFolders } from './executable-search-folders.js';
import { mountAliases } from './mount-aliases.js';
import { procfsMountPoints } from './process-secrets.js';
import { detectLetterCase } from './detect-letter-case.js';
import { findGitRedirections } from './find-git-redirections.js';
import { SandboxConfigurationError } from './sandbox-error.js';
import type { ScopedPath } from './sandbox-layout.js';
import type { LetterCase, NetworkAccess, PathGrant, SandboxMode, SandboxPolicy } from './sandbox-policy.js';
import { withGrants } from './with-grants.js';

/**
 * A configurable list: a plain array adds to the defaults; `{ replace: [...] }` replaces them.
 * Relative entries are relative to the home directory (or, for root entries, to each writable root).
 */
export type ProtectedPathList = readonly string[] | { readonly replace: readonly string[] };

export interface CreateSandboxPolicyOptions {
  /** §3.1; default `workspace-write`. */
  readonly mode?: SandboxMode;
  /** Absolute workspace roots. Empty ⇒ nothing is writable in `workspace-write` but temp roots. */
  readonly workspaceRoots: readonly string[];
  readonly extraWritableRoots?: readonly string[];
  /** Required: the real HOME is never read implicitly. */
  readonly homeDirectory: string;
  /** Default `<homeDirectory>/.openwork`. */
  readonly openworkHome?: string;
  readonly skillRoots?: readonly string[];
  /** Default `[os.tmpdir(), '/tmp']`; `[]` for none. */
  readonly tempRoots?: readonly string[];
  /** Tier 2 additions or replacement (home-relative or absolute). `replace` replaces the runtime folder's defaults too. */
  readonly credentialPaths?: ProtectedPathList;
  /**
   * The user's runtime folder, whose default credentials (`credentialRuntimeDefaults`: podman's
   * registry logins) are tier 2. Default: `$XDG_RUNTIME_DIR` when absolute, else `/run/user/<uid>`
   * when it exists; `null` for none.
   */
  readonly runtimeDirectory?: string | null;
  /** Tier 3 home additions or replacement (home-relative or absolute). */
  readonly sensitiveHomePaths?: ProtectedPathList;
  /** Tier 3 names below every writable root, additions or replacement. */
  readonly sensitiveRootEntries?: ProtectedPathList;
  /** Grants already approved for this call; canonicalised here. */
  readonly grants?: readonly PathGrant[];
  /** Network of sandboxed processes; default `allow` (spec §7.9: no claim of isolation). */
  readonly network?: NetworkAccess;
  /**
   * How protected entries match. Default: detected — `insensitive` on macOS and Windows, and where
   * a session root or the home directory folds letter case (`detectLetterCase`).
   */
  readonly letterCase?: LetterCase;
  /**
   * UNIX sockets of host daemons that sandboxed commands may connect to (architecture §3.7), e.g.
   * `$SSH_AUTH_SOCK` for `git push`. Absolute; every other host socket stays unreachable.
   */
  readonly allowSockets?: readonly string[];
  /** This session's spill folder (`<openworkHome>/spill/<session-id>`): the one spill folder its tools may read (§3.8). */
  readonly sessionSpillDirectory?: string;
  /**
   * The user's `PATH` (default `process.env.PATH`): its folders inside HOME or a session root are
   * sensitive (tier 3), since a program planted there runs instead of the real one later (§3.7).
   */
  readonly executableSearchPath?: string;
}

function resolveList(defaults: readonly string[], list: ProtectedPathList | undefined): readonly string[] {
  if (list === undefined) return defaults;
  if ('replace' in list) return list.replace;
  return [...defaults, ...(list as readonly string[])];
}

function unique(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/**
 * The session's spill folder, canonical. One that cannot be resolved (a file where `spill/` should
 * be) holds nothing to read, so the policy simply reopens nothing instead of failing the call.
 */
function ownSpillDirectory(folder: string | undefined): string | undefined {
  if (folder === undefined) return undefined;
  requireAbsolute(folder, 'sessionSpillDirectory');
  const resolution = canonicalizePathSync(folder, { cwd: '/', intent: 'may-create' });
  return resolution.ok ? resolution.path : undefined;
}

/** §3.8: a protected entry at every other mount path of the same file (`mountAliases`). */
function withMountAliases(locations: readonly string[]): string[] {
  return [...locations, ...locations.flatMap(mountAliases)];
}

/**
 * Configured entries are home-relative or absolute. `~` and `~/x` (how people write them in
 * configuration files) mean the home directory; without this, `~/.vault-token` would silently
 * protect `<home>/~/.vault-token` and leave the real file readable. `~user/x` is refused.
 */
function homeRelative(entry: string, home: string, what: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.posix.join(home, entry.slice(2));
  if (entry.startsWith('~')) {
    throw new SandboxConfigurationError(`${what} ${JSON.stringify(entry)}: only ~ and ~/… are understood; give an absolute path or one relative to the home directory`);
  }
  return entry.startsWith('/') ? entry : path.posix.join(home, entry);
}

/**
 * Git redirections with canonical paths: an `exact` entry (a `.git` file or link) where the entry
 * sits, never what a linked `.git` points to (its contents stay writable for `git commit`); a
 * `subtree` entry at both of its locations, like every protected name.
 */
function canonicalGitRedirections(entries: readonly ScopedPath[]): ScopedPath[] {
  const result = new Map<string, ScopedPath>();
  for (const entry of entries) {
    const locations =
      entry.scope === 'exact'
        ? [entryLocation(entry.path, 'git redirection')].filter((location): location is string => location !== undefined)
        : protectedLocations(entry.path, 'git redirection');
    for (const location of locations) result.set(`${entry.scope}\0${location}`, Object.freeze({ path: location, scope: entry.scope }));
  }
  return [...result.values()];
}

/** The settings that are not paths, checked: a wrong one is refused before anything is read. */
function checkedSettings(options: CreateSandboxPolicyOptions): { readonly mode: SandboxMode; readonly network: NetworkAccess } {
  const mode = options.mode ?? 'workspace-write';
  if (mode !== 'read-only' && mode !== 'workspace-write' && mode !== 'full-access') {
    throw new SandboxConfigurationError(`unknown sandbox mode ${JSON.stringify(mode)}`);
  }
  const network = options.network ?? 'allow';
  if (network !== 'allow' && network !== 'none') {
    throw new SandboxConfigurationError(`network must be 'allow' or 'none', got ${JSON.stringify(network)}`);
  }
  if (options.letterCase !== undefined && options.letterCase !== 'sensitive' && options.letterCase !== 'insensitive') {
    throw new SandboxConfigurationError(`letterCase must be 'sensitive' or 'insensitive' (or absent to detect it), got ${JSON.stringify(options.letterCase)}`);
  }
  return { mode, network };
}

/** Every root of the session, canonical. */
interface SessionRoots {
  readonly homeDirectory: string;
  readonly workspaceRoots: string[];
  readonly extraWritableRoots: string[];
  readonly tempRoots: string[];
  readonly openworkHomeInput: string;
  readonly openworkHome: string;
  readonly skillRoots: string[];
}

function sessionRootsOf(options: CreateSandboxPolicyOptions): SessionRoots {
  const homeDirectory = canonicalRoot(options.homeDirectory, 'homeDirectory');
  const openworkHomeInput = options.openworkHome ?? path.posix.join(homeDirectory, '.openwork');
  return {
    homeDirectory,
    workspaceRoots: unique(options.workspaceRoots.map((root) => canonicalRoot(root, 'workspace root'))),
    extraWritableRoots: unique((options.extraWritableRoots ?? []).map((root) => canonicalRoot(root, 'extra writable root'))),
    tempRoots: unique((options.tempRoots ?? [os.tmpdir(), '/tmp']).map((root) => canonicalRoot(root, 'temp root'))),
    openworkHomeInput,
    openworkHome: canonicalRoot(openworkHomeInput, 'openworkHome'),
    skillRoots: unique((options.skillRoots ?? []).map((root) => canonicalRoot(root, 'skill root'))),
  };
}

/**
 * Tier 1 given through a symbolic link: protect the link too (else `rm ~/.openwork && mkdir
 * ~/.openwork` in full-access swaps the OpenWork home), and a linked `<ws>/.openwork`'s target.
 */
function hardProtectedAliasesOf(roots: SessionRoots, options: CreateSandboxPolicyOptions): string[] {
  const workspaceOpenwork = roots.workspaceRoots.map((root) => `${root === '/' ? '' : root}/.openwork`);
  const canonical = new Set([roots.openworkHome, ...roots.skillRoots, ...workspaceOpenwork]);
  return unique(
    [
      ...protectedLocations(roots.openworkHomeInput, 'openworkHome'),
      ...(options.skillRoots ?? []).flatMap((root) => protectedLocations(root, 'skill root')),
      ...workspaceOpenwork.flatMap((entry) => protectedLocations(entry, 'workspace .openwork')),
    ].filter((location) => !canonical.has(location)),
  );
}

/** The runtime folder whose default credentials are protected (see `runtimeDirectory`), or none. */
function runtimeDirectoryOf(options: CreateSandboxPolicyOptions): string | undefined {
  if (options.runtimeDirectory === null) return undefined;
  if (options.runtimeDirectory !== undefined) return canonicalRoot(options.runtimeDirectory, 'runtimeDirectory');
  const fromEnvironment = process.env['XDG_RUNTIME_DIR'];
  const candidate = fromEnvironment?.startsWith('/') === true ? fromEnvironment : process.getuid === undefined ? undefined : `/run/user/${process.getuid()}`;
  if (candidate === undefined) return undefined;
  try {
    return canonicalRoot(candidate, 'runtimeDirectory');
  } catch {
    return undefined; // not there, or not reachable: it holds nothing to protect
  }
}

/** Tier 2 at every location and mount path, and which of them need no mask while missing. */
function credentialsOf(roots: SessionRoots, options: CreateSandboxPolicyOptions): { readonly paths: string[]; readonly unguardedWhenMissing: string[] } {
  const locations = (entry: string): string[] =>
    withMountAliases(protectedLocations(homeRelative(entry, roots.homeDirectory, 'credential path'), 'credential path'));
  const runtime = runtimeDirectoryOf(options);
  const runtimeEntries = runtime === undefined ? [] : credentialRuntimeDefaults.map((entry) => path.posix.join(runtime, entry.path));
  const entries = resolveList([...defaultCredentialHomeEntries, ...runtimeEntries], options.credentialPaths);
  const unguarded = new Set([...credentialHomeDefaultsUnguardedWhenMissing.map((entry) => entry.path), ...runtimeEntries]);
  return { paths: unique(entries.flatMap(locations)), unguardedWhenMissing: unique(entries.filter((entry) => unguarded.has(entry)).flatMap(locations)) };
}

/** Tier 3 in home: the configured entries and the `PATH` folders inside HOME or a session root (§3.7). */
function sensitiveHomePathsOf(roots: SessionRoots, sessionRoots: readonly string[], options: CreateSandboxPolicyOptions): string[] {
  return unique(
    [
      ...resolveList(defaultSensitiveHomeEntries, options.sensitiveHomePaths).map((entry) => homeRelative(entry, roots.homeDirectory, 'sensitive path')),
      ...executableSearchFolders(options.executableSearchPath ?? process.env['PATH'] ?? '', [roots.homeDirectory, ...sessionRoots]),
    ].flatMap((entry) => withMountAliases(protectedLocations(entry, 'sensitive path'))),
  );
}

/** Tier 3 names below every root: relative, normalised, never above the root. */
function sensitiveRootEntriesOf(options: CreateSandboxPolicyOptions): string[] {
  return unique(
    resolveList(defaultSensitiveRootEntries, options.sensitiveRootEntries).map((entry) => {
      const normalized = path.posix.normalize(entry).replace(/\/+$/, '');
      if (entry.includes('\0') || normalized.startsWith('/') || normalized === '.' || normalized.startsWith('..')) {
        throw new SandboxConfigurationError(`sensitive root entries are relative names below a root, got ${JSON.stringify(entry)}`);
      }
      return normalized;
    }),
  );
}

/** A root entry that is a link protects its target too (the textual entry is protected anyway). */
function sensitiveRootAliasesOf(sessionRoots: readonly string[], entries: readonly string[]): string[] {
  return unique(
    sessionRoots.flatMap((root) =>
      entries.flatMap((entry) => {
        const textual = `${root === '/' ? '' : root}/${entry}`;
        return protectedLocations(textual, 'sensitive root entry').filter((location) => location !== textual);
      }),
    ),
  );
}

/**
 * Build the policy of architecture §3 with every path canonical, so that enforcers (`checkAccess`,
 * the Seatbelt profile, bubblewrap) never touch the file system to interpret it. Each step above
 * resolves one part; this only puts them together.
 */
export function createSandboxPolicy(options: CreateSandboxPolicyOptions): SandboxPolicy {
  const { mode, network } = checkedSettings(options);
  const roots = sessionRootsOf(options);
  const { homeDirectory, workspaceRoots, extraWritableRoots, tempRoots, openworkHome } = roots;
  const sessionRoots = [...workspaceRoots, ...extraWritableRoots, ...tempRoots];
  const credentials = credentialsOf(roots, options);
  const storedSecretPaths = unique(
    openworkHomeSecretDefaults.flatMap((entry) => withMountAliases(protectedLocations(path.posix.join(openworkHome, entry.path), 'stored secret'))),
  );
  const sensitiveRootEntries = sensitiveRootEntriesOf(options);
  const gitRedirections = canonicalGitRedirections(findGitRedirections(sessionRoots, homeDirectory, { workspaceRoots, tempRoots }));
  const policy: SandboxPolicy = Object.freeze({
    mode,
    workspaceRoots: Object.freeze(workspaceRoots),
    extraWritableRoots: Object.freeze(extraWritableRoots),
    tempRoots: Object.freeze(tempRoots),
    homeDirectory,
    openworkHome,
    skillRoots: Object.freeze(roots.skillRoots),
    hardProtectedAliases: Object.freeze(hardProtectedAliasesOf(roots, options)),
    credentialPaths: Object.freeze(credentials.paths),
    credentialPathsUnguardedWhenMissing: Object.freeze(credentials.unguardedWhenMissing),
    storedSecretPaths: Object.freeze(storedSecretPaths),
    sessionSpillDirectory: ownSpillDirectory(options.sessionSpillDirectory),
    allowedSockets: Object.freeze(unique((options.allowSockets ?? []).map((socket) => canonicalRoot(socket, 'allowed socket')))),
    sensitiveHomePaths: Object.freeze(sensitiveHomePathsOf(roots, sessionRoots, options)),
    sensitiveRootEntries: Object.freeze(sensitiveRootEntries),
    sensitiveRootAliases: Object.freeze(sensitiveRootAliasesOf(sessionRoots, sensitiveRootEntries)),
    gitRedirections: Object.freeze(gitRedirections),
    grants: Object.freeze([]),
    network,
    letterCase: options.letterCase ?? detectLetterCase([...sessionRoots, homeDirectory]),
    procfsMounts: Object.freeze(procfsMountPoints()),
  });
  const grants = (options.grants ?? []).map((grant) => ({ ...grant, path: canonicalRoot(grant.path, 'grant path') }));
  return withGrants(policy, grants);
}
