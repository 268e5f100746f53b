import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import { isInsideScopedPath } from '../policy/is-inside-scoped-path.js';

/** A Seatbelt profile and its `-D NAME=value` parameters: paths only ever appear as parameters (§3.4). */
export interface SeatbeltProfile {
  readonly profile: string;
  readonly parameters: Readonly<Record<string, string>>;
}

/**
 * What a bash process needs besides files. Deliberately no `network*` statement at all: we never
 * claim network isolation (spec §7.9), and `(deny default)` is Apple's business, not our promise.
 */
const processBase = [
  '(version 1)',
  '(deny default)',
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow sysctl-read)',
  '(allow pseudo-tty)',
  '(allow ipc-posix-sem)',
  '(allow ipc-posix-shm-read-data)',
  '(allow user-preference-read)',
  '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger") (global-name "com.apple.system.notification_center") (global-name "com.apple.CoreServices.coreservicesd"))',
];

/** Two entries overlap when one is inside the other: only those exclusions matter for a rule. */
function overlaps(a: ScopedPath, b: ScopedPath): boolean {
  return isInsideScopedPath(a.path, b) || isInsideScopedPath(b.path, a);
}

class ParameterTable {
  readonly values: Record<string, string> = {};
  private readonly counters = new Map<string, number>();

  add(prefix: string, value: string): string {
    const index = this.counters.get(prefix) ?? 0;
    this.counters.set(prefix, index + 1);
    const name = `${prefix}_${index}`;
    this.values[name] = value;
    return `(param "${name}")`;
  }
}

function matchFilter(entry: ScopedPath, param: string): string {
  return entry.scope === 'exact' ? `(literal ${param})` : `(subpath ${param})`;
}

/** `(require-not (literal P))` and, for a subtree, `(require-not (subpath P))`: also stops `mkdir P` (peers.md). */
function exclusionFilters(entry: ScopedPath, param: string): string[] {
  const filters = [`(require-not (literal ${param}))`];
  if (entry.scope === 'subtree') filters.push(`(require-not (subpath ${param}))`);
  return filters;
}

/** One `(allow file-write* …)` rule for `entry`, with every overlapping excluded entry folded in. */
function writeRule(entry: ScopedPath, param: string, excluded: readonly { entry: ScopedPath; param: string }[]): string {
  const exclusions = excluded
    .filter((candidate) => overlaps(candidate.entry, entry))
    .flatMap((candidate) => exclusionFilters(candidate.entry, candidate.param));
  return exclusions.length === 0
    ? `(allow file-write* ${matchFilter(entry, param)})`
    : `(allow file-write* (require-all ${matchFilter(entry, param)} ${exclusions.join(' ')}))`;
}

/**
 * Render a layout as SBPL (architecture §3.4): exclusions folded into each allow rule with
 * `require-all`/`require-not`, so that no path is matched by both an allow and a deny and the rule
 * order does not matter. Everything is derived from `SandboxLayout`, like the bubblewrap renderer.
 */
export function renderSeatbeltProfile(layout: SandboxLayout): SeatbeltProfile {
  const table = new ParameterTable();
  const lines = [...processBase];
  const unreadableParams = layout.unreadable.map((entry) => ({ entry, param: table.add('UNREADABLE', entry.path) }));
  const readOnlyParams = layout.readOnly.map((entry) => ({ entry, param: table.add('READ_ONLY', entry.path) }));
  const hardParams = layout.hardProtected.map((entry) => ({ entry, param: table.add('HARD_PROTECTED', entry.path) }));

  // Reads: everything except credential paths, plus read grants that reopen parts of them.
  const readRoot = table.add('READ_ROOT', '/');
  const readExclusions = unreadableParams.flatMap(({ entry, param }) => exclusionFilters(entry, param));
  lines.push(`(allow file-read* (require-all (subpath ${readRoot})${readExclusions.map((filter) => ` ${filter}`).join('')}))`);
  for (const entry of layout.readableGrants) {
    lines.push(`(allow file-read* ${matchFilter(entry, table.add('READABLE_GRANT', entry.path))})`);
  }

  // Writes: each writable entry minus the read-only and unreadable entries that overlap it.
  for (const entry of layout.writable) {
    lines.push(writeRule(entry, table.add('WRITABLE_ROOT', entry.path), [...readOnlyParams, ...unreadableParams]));
  }
  // Grants inside sensitive/credential entries: writable, but never tier 1 (§3.3).
  for (const entry of layout.writableGrants) {
    lines.push(writeRule(entry, table.add('WRITABLE_GRANT', entry.path), hardParams));
  }
  if (layout.deviceFiles.length > 0) {
    const devices = layout.deviceFiles.map((entry) => `(literal ${table.add('DEVICE', entry.path)})`);
    lines.push(`(allow file-write* (require-any ${devices.join(' ')}))`);
    lines.push(`(allow file-ioctl (require-any ${devices.join(' ')}))`);
  }
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
