import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';
import { foldLetterCase } from '../policy/letter-case.js';
import { protectedParents } from '../policy/protected-parents.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import type { LetterCase } from '../policy/sandbox-policy.js';
import { seatbeltKindPattern } from './seatbelt-kind-pattern.js';
import { seatbeltPathPattern } from './seatbelt-path-pattern.js';
import { seatbeltNetworkRules, seatbeltPlatformRules, seatbeltSystemSockets } from './seatbelt-platform-rules.js';

/** A Seatbelt profile and its `-D NAME=value` parameters: paths only ever appear as parameters (§3.4). */
export interface SeatbeltProfile {
  readonly profile: string;
  readonly parameters: Readonly<Record<string, string>>;
}

/** What a profile needs beyond the layout: facts about this Mac's shell, not permissions of the policy. */
export interface SeatbeltProfileOptions {
  /**
   * Folders in which bash may create its here-document files (`sh-thd-…`, directly inside) in
   * every mode, read-only included: macOS's bash 3.2 writes every here-document to `$TMPDIR` (or
   * `/var/tmp` without it), so `cat <<EOF` fails in read-only mode without this. `SeatbeltBackend`
   * passes the policy's temp roots and `/private/var/tmp`. Default: none.
   */
  readonly hereDocumentDirectories?: readonly string[];
}

class ParameterTable {
  readonly values: Record<string, string> = {};
  private readonly counters = new Map<string, number>();
  private readonly known = new Map<string, string>();

  /** `(param "PREFIX_N")` for `value`; the same prefix and value give the same parameter. */
  add(prefix: string, value: string): string {
    const key = `${prefix}\0${value}`;
    const existing = this.known.get(key);
    if (existing !== undefined) return existing;
    const index = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, index + 1);
    const name = `${prefix}_${index}`;
    this.values[name] = value;
    const reference = `(param "${name}")`;
    this.known.set(key, reference);
    return reference;
  }
}

/** An entry the write or read rules must leave out, with the parameter prefix it is passed under. */
interface Excluded {
  readonly entry: ScopedPath;
  readonly prefix: string;
}

/**
 * Deny-side matching (the letter-case rule, docs/decisions/0044-sandbox-letter-case.md). `sensitive`: `(literal P)` and, for a subtree,
 * `(subpath P)` — both, so `mkdir P` is stopped as well as writes below P. `insensitive`: one
 * `(regex P_PATTERN)` with every ASCII letter as a class, so `.GIT/config` is excluded like
 * `.git/config` on a case-insensitive volume, whatever spelling the kernel reports.
 */
class ExclusionRenderer {
  constructor(
    private readonly table: ParameterTable,
    private readonly letterCase: LetterCase,
  ) {}

  filters({ entry, prefix }: Excluded): string[] {
    if (this.letterCase === 'insensitive') {
      const pattern = this.table.add(`${prefix}_PATTERN`, seatbeltPathPattern(entry.path, entry.scope, 'insensitive'));
      return [`(require-not (regex ${pattern}))`];
    }
    const param = this.table.add(prefix, entry.path);
    const filters = [`(require-not (literal ${param}))`];
    if (entry.scope === 'subtree') filters.push(`(require-not (subpath ${param}))`);
    return filters;
  }

  /** Only exclusions that overlap the allowed entry matter for its rule. */
  overlaps(excluded: ScopedPath, allowed: ScopedPath): boolean {
    const fold = (entry: ScopedPath): ScopedPath =>
      this.letterCase === 'insensitive' ? { path: foldLetterCase(entry.path), scope: entry.scope } : entry;
    const a = fold(excluded);
    const b = fold(allowed);
    return isInsideScopedPath(a.path, b) || isInsideScopedPath(b.path, a);
  }
}

function matchFilter(table: ParameterTable, entry: ScopedPath, prefix: string): string {
  const param = table.add(prefix, entry.path);
  return entry.scope === 'exact' ? `(literal ${param})` : `(subpath ${param})`;
}

/** One allow rule for `entry`, with every overlapping exclusion folded in (no deny rules, §3.4). */
function allowRule(
  operation: string,
  table: ParameterTable,
  exclusions: ExclusionRenderer,
  entry: ScopedPath,
  prefix: string,
  excluded: readonly Excluded[],
  extraFilters: readonly string[] = [],
): string {
  const filters = [...excluded.filter((candidate) => exclusions.overlaps(candidate.entry, entry)).flatMap((candidate) => exclusions.filters(candidate)), ...extraFilters];
  const match = matchFilter(table, entry, prefix);
  return filters.length === 0 ? `(allow ${operation} ${match})` : `(allow ${operation} (require-all ${match} ${filters.join(' ')}))`;
}

/** Reads: everything except credential paths (tier 2), plus read grants that reopen parts of them. */
function readRules(layout: SandboxLayout, table: ParameterTable, exclusions: ExclusionRenderer): string[] {
  const unreadable = layout.unreadable.map((entry) => ({ entry, prefix: 'UNREADABLE' }));
  return [
    allowRule('file-read*', table, exclusions, { path: '/', scope: 'subtree' }, 'READ_ROOT', unreadable),
    ...layout.readableGrants.map((entry) => `(allow file-read* ${matchFilter(table, entry, 'READABLE_GRANT')})`),
  ];
}

/**
 * Writes: each writable entry minus the read-only and unreadable entries inside it and the folders
 * that hold them (`protectedParents`: no rename, removal or creation of `.git`, `~/.config`, the
 * root itself …); grants inside sensitive/credential entries minus tier 1 (§3.3) and its folders.
 * Both minus tier 3 by kind at any depth below them (`seatbeltKindPattern`). A repository's
 * `core.hooksPath` folder is the one kind Seatbelt cannot name by pattern: the profile keeps what
 * the policy resolved when it was built (`gitRedirections`, in `readOnly`); the fence also finds
 * the hooks folders of repositories at any depth when it judges a write.
 */
function writeRules(layout: SandboxLayout, table: ParameterTable, exclusions: ExclusionRenderer): string[] {
  const parents = protectedParents(layout).map((entry) => ({ entry, prefix: 'PROTECTED_PARENT' }));
  const protectedEntries = [
    ...layout.readOnly.map((entry) => ({ entry, prefix: 'READ_ONLY' })),
    ...layout.unreadable.map((entry) => ({ entry, prefix: 'UNREADABLE' })),
    ...parents,
  ];
  const tierOne = [...layout.hardProtected.map((entry) => ({ entry, prefix: 'HARD_PROTECTED' })), ...parents];
  // Tier 3 by kind at any depth (§3.10): one regex per writable entry, for the kind entries strictly below it.
  const kinds = (entry: ScopedPath): string[] =>
    layout.sensitiveKinds === undefined || entry.scope !== 'subtree'
      ? []
      : [`(require-not (regex ${table.add('SENSITIVE_KINDS', seatbeltKindPattern(entry.path, layout.sensitiveKinds.names, layout.letterCase))}))`];
  return [
    ...layout.writable.map((entry) => allowRule('file-write*', table, exclusions, entry, 'WRITABLE_ROOT', protectedEntries, kinds(entry))),
    ...layout.writableGrants.map((entry) => allowRule('file-write*', table, exclusions, entry, 'WRITABLE_GRANT', tierOne, kinds(entry))),
  ];
}

/**
 * Device files (`/dev/null` …): data writes to character devices only, and ioctl: no
 * unlink, rename, mode or owner change of a device node, whatever the mode.
 */
function deviceRules(layout: SandboxLayout, table: ParameterTable): string[] {
  if (layout.deviceFiles.length === 0) return [];
  const devices = `(require-any ${layout.deviceFiles.map((entry) => matchFilter(table, entry, 'DEVICE')).join(' ')})`;
  return [`(allow file-write-data (require-all ${devices} (vnode-type CHARACTER-DEVICE)))`, `(allow file-ioctl ${devices})`];
}

/** bash 3.2's here-document files, directly inside the given folders (see `SeatbeltProfileOptions`). */
function hereDocumentRules(directories: readonly string[], table: ParameterTable): string[] {
  if (directories.length === 0) return [];
  const patterns = [...new Set(directories)].map((directory) => {
    const folder = seatbeltPathPattern(directory, 'exact', 'sensitive').slice(0, -1);
    return `(regex ${table.add('HERE_DOCUMENT', `${folder === '^/' ? '^' : folder}/sh-thd-[^/]+$`)})`;
  });
  return [`(allow file-write* (require-any ${patterns.join(' ')}))`];
}

/**
 * Render a layout as SBPL (architecture §3.4) in named steps: `(deny default)`, what macOS
 * processes need (`seatbeltPlatformRules`), the network rules of `layout.network`, then reads,
 * writes, devices and here-documents derived from the layout. Exclusions are folded into each
 * allow rule with `require-all`/`require-not`, so no path is matched by both an allow and a deny
 * and rule order does not matter. Generic over the layout: new protected entries flow in.
 */
export function renderSeatbeltProfile(layout: SandboxLayout, options: SeatbeltProfileOptions = {}): SeatbeltProfile {
  const table = new ParameterTable();
  const exclusions = new ExclusionRenderer(table, layout.letterCase);
  const lines = [
    '(version 1)',
    '(deny default)',
    ...seatbeltPlatformRules,
    ...seatbeltNetworkRules(
      layout.network,
      (layout.allowedSockets ?? []).map((socket) => table.add('ALLOWED_SOCKET', socket)),
      seatbeltSystemSockets.map((socket) => table.add('SYSTEM_SOCKET', socket)),
    ),
    ...readRules(layout, table, exclusions),
    ...writeRules(layout, table, exclusions),
    ...deviceRules(layout, table),
    ...hereDocumentRules(options.hereDocumentDirectories ?? [], table),
  ];
  return { profile: `${lines.join('\n')}\n`, parameters: Object.freeze({ ...table.values }) };
}

/**
 * The argv of §3.4 / spec §7.9: `/usr/bin/sandbox-exec -p <profile> -D NAME=value … -- <argv>`.
 */
export function seatbeltArguments(profile: SeatbeltProfile, argv: readonly string[]): string[] {
  const result = ['/usr/bin/sandbox-exec', '-p', profile.profile];
  for (const [name, value] of Object.entries(profile.parameters)) {
    result.push('-D', `${name}=${value}`);
  }
  result.push('--', ...argv);
  return result;
}
