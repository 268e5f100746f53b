import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SeatbeltEvaluator,
  checkAccess,
  createSandboxPolicy,
  deriveSandboxLayout,
  renderSeatbeltProfile,
  withGrants,
  type CreateSandboxPolicyOptions,
  type PathGrant,
  type SandboxLayout,
} from '../index.js';

let root: string;
let ws: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-layout-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  for (const directory of [ws, home]) await fs.mkdir(directory, { recursive: true });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function allPaths(layout: SandboxLayout): string[] {
  return [layout.writable, layout.readOnly, layout.unreadable, layout.hardProtected, layout.readableGrants, layout.writableGrants].flatMap(
    (entries) => entries.map((entry) => entry.path),
  );
}

/** What the kernel is asked to enforce on macOS, evaluated: the rendered profile, not the layout. */
function seatbeltWrites(layout: SandboxLayout, target: string): boolean {
  const profile = renderSeatbeltProfile(layout);
  return SeatbeltEvaluator.compile(profile.profile, profile.parameters).decide('file-write*', target) === 'allow';
}

describe('deriveSandboxLayout (architecture §3.2, §3.4)', () => {
  // Containers often work at `/`. A root of `/` must protect `/.openwork`, `/.git/hooks`, …, not
  // `//.openwork`, which names nothing, so that tiers 1 and 3 would vanish for the whole machine.
  const rootOfSlash: ReadonlyArray<[string, (slash: string) => Partial<CreateSandboxPolicyOptions>]> = [
    ['a workspace root', (slash) => ({ workspaceRoots: [slash] })],
    ['an extra writable root', (slash) => ({ extraWritableRoots: [slash] })],
    ['a temp root', (slash) => ({ tempRoots: [slash] })],
  ];
  for (const [which, place] of rootOfSlash) {
    it(`${which} of / keeps the sensitive entries below it protected, for file tools and for processes`, () => {
      const policy = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], ...place('/') });
      const layout = deriveSandboxLayout(policy);
      expect(allPaths(layout).filter((entry) => entry.startsWith('//'))).toEqual([]);
      for (const entry of ['.git/hooks', '.git/config', '.envrc', '.vscode', '.idea']) {
        expect(layout.readOnly).toContainEqual({ path: `/${entry}`, scope: 'subtree' });
      }
      for (const target of ['/.git/hooks/pre-commit', '/.git/config', '/.envrc', '/.vscode/tasks.json']) {
        for (const actor of ['file-tool', 'process'] as const) {
          expect(checkAccess(policy, target, 'write', actor), `${actor} write ${target}`).toMatchObject({ allowed: false, tier: 'sensitive' });
        }
        expect(seatbeltWrites(layout, target), `seatbelt write ${target}`).toBe(false);
      }
      // The root itself stays writable: only the protected names are carved out.
      expect(checkAccess(policy, '/srv/app/main.js', 'write', 'process')).toMatchObject({ allowed: true, tier: 'writable-root' });
      expect(seatbeltWrites(layout, '/srv/app/main.js')).toBe(true);
    });
  }

  it('a workspace root of / keeps /.openwork hard-protected', () => {
    const policy = createSandboxPolicy({ workspaceRoots: ['/'], homeDirectory: home, tempRoots: [] });
    const layout = deriveSandboxLayout(policy);
    expect(layout.hardProtected).toContainEqual({ path: '/.openwork', scope: 'subtree' });
    const decision = checkAccess(policy, '/.openwork/config.json', 'write', 'file-tool');
    expect(decision).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
    expect(seatbeltWrites(layout, '/.openwork/config.json')).toBe(false);
    // And no grant reopens it (§3.3).
    const granted = withGrants(policy, [{ path: '/.openwork', access: 'write', scope: 'subtree' }]);
    expect(checkAccess(granted, '/.openwork/config.json', 'write', 'process').allowed).toBe(false);
    expect(deriveSandboxLayout(granted).writable).toStrictEqual(layout.writable);
  });

  it('write grants at or below tier 1 never reach the writable or granted entries the kernel renderers use', () => {
    const skills = path.join(home, 'skills');
    const base = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], skillRoots: [skills] });
    const openworkHome = path.join(home, '.openwork');
    const tierOneGrants: PathGrant[] = [
      { path: openworkHome, access: 'write', scope: 'subtree' },
      { path: path.join(openworkHome, 'spill', 'session', 'call.txt'), access: 'write', scope: 'exact' },
      { path: skills, access: 'write', scope: 'subtree' },
      { path: path.join(ws, '.openwork'), access: 'write', scope: 'subtree' },
      { path: path.join(ws, '.openwork', 'settings.json'), access: 'write', scope: 'exact' },
      { path: openworkHome, access: 'read', scope: 'subtree' },
    ];
    const before = deriveSandboxLayout(base);
    const after = deriveSandboxLayout(withGrants(base, tierOneGrants));

    expect(after.writable).toStrictEqual(before.writable);
    expect(after.writable.map((entry) => entry.path)).toStrictEqual([ws]);
    expect(after.writableGrants).toStrictEqual([]);
    expect(after.readableGrants).toStrictEqual([]);
    expect(after.hardProtected).toStrictEqual(before.hardProtected);

    // The rendered profile names no tier 1 path as something to write, and denies writing there.
    const profile = renderSeatbeltProfile(after);
    const writeParameters = Object.entries(profile.parameters).filter(([name]) => name.startsWith('WRITABLE_'));
    expect(writeParameters).toStrictEqual([['WRITABLE_ROOT_0', ws]]);
    for (const grant of tierOneGrants) {
      expect(seatbeltWrites(after, path.join(grant.path, 'x')), grant.path).toBe(false);
      expect(checkAccess(withGrants(base, tierOneGrants), grant.path, 'write', 'process').allowed).toBe(false);
    }
  });

  it('an ordinary write grant is writable, one inside a sensitive entry is a writable grant, one inside a credential is readable too', () => {
    const base = createSandboxPolicy({ mode: 'read-only', workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    const outside = path.join(root, 'elsewhere', 'notes.txt');
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    const key = path.join(home, '.ssh', 'id_ed25519');
    const layout = deriveSandboxLayout(
      withGrants(base, [
        { path: outside, access: 'write', scope: 'exact' },
        { path: hook, access: 'write', scope: 'exact' },
        { path: key, access: 'write', scope: 'exact' },
        { path: path.join(home, '.aws'), access: 'read', scope: 'subtree' },
      ]),
    );
    expect(layout.writable).toStrictEqual([{ path: outside, scope: 'exact' }]);
    expect(layout.writableGrants).toStrictEqual([
      { path: hook, scope: 'exact' },
      { path: key, scope: 'exact' },
    ]);
    expect(layout.readableGrants).toStrictEqual([
      { path: key, scope: 'exact' },
      { path: path.join(home, '.aws'), scope: 'subtree' },
    ]);
  });

  it('lists each entry once, whatever overlaps the configuration has', () => {
    const policy = withGrants(
      createSandboxPolicy({
        workspaceRoots: [ws, ws],
        extraWritableRoots: [ws],
        tempRoots: [ws],
        homeDirectory: home,
        skillRoots: [path.join(home, '.openwork')],
      }),
      [
        { path: path.join(root, 'g'), access: 'write', scope: 'exact' },
        { path: path.join(root, 'g'), access: 'write', scope: 'exact' },
        { path: path.join(home, '.ssh', 'config'), access: 'write', scope: 'exact' },
        { path: path.join(home, '.ssh', 'config'), access: 'write', scope: 'exact' },
      ],
    );
    const layout = deriveSandboxLayout(policy);
    for (const [name, entries] of Object.entries(layout)) {
      // Only the entry lists: `network`, `letterCase`, `homeDirectory` and `sessionRoots` are settings and hints.
      if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'object')) continue;
      const keys = (entries as SandboxLayout['writable']).map((entry) => `${entry.scope} ${entry.path}`);
      expect(keys, name).toStrictEqual([...new Set(keys)]);
    }
    expect(layout.writable).toStrictEqual([
      { path: ws, scope: 'subtree' },
      { path: path.join(root, 'g'), scope: 'exact' },
    ]);
    expect(layout.hardProtected.filter((entry) => entry.path === path.join(home, '.openwork'))).toHaveLength(1);
    expect(layout.readOnly.filter((entry) => entry.path === path.join(ws, '.envrc'))).toHaveLength(1);
    expect(layout.writableGrants).toHaveLength(1);
    expect(layout.readableGrants).toHaveLength(1);
  });

  it('the same path as an exact and as a subtree entry are two different entries', () => {
    const file = path.join(root, 'twice');
    const layout = deriveSandboxLayout(
      withGrants(createSandboxPolicy({ mode: 'read-only', workspaceRoots: [ws], homeDirectory: home, tempRoots: [] }), [
        { path: file, access: 'write', scope: 'exact' },
        { path: file, access: 'write', scope: 'subtree' },
      ]),
    );
    expect(layout.writable).toStrictEqual([
      { path: file, scope: 'exact' },
      { path: file, scope: 'subtree' },
    ]);
  });

  it('is frozen all the way down, so no enforcer can widen what another one renders', () => {
    const layout = deriveSandboxLayout(
      withGrants(createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] }), [
        { path: path.join(root, 'g'), access: 'write', scope: 'exact' },
        { path: path.join(home, '.ssh', 'config'), access: 'write', scope: 'exact' },
      ]),
    );
    expect(Object.isFrozen(layout)).toBe(true);
    const { sensitiveKinds, ...lists } = layout;
    expect(Object.isFrozen(sensitiveKinds)).toBe(true);
    expect(Object.isFrozen(sensitiveKinds?.names)).toBe(true);
    for (const rule of sensitiveKinds?.names ?? []) expect(Object.isFrozen(rule) && Object.isFrozen(rule.names), rule.kind).toBe(true);
    for (const [name, entries] of Object.entries(lists)) {
      expect(Object.isFrozen(entries), name).toBe(true);
      for (const entry of entries as SandboxLayout['writable']) expect(Object.isFrozen(entry), `${name} ${entry.path}`).toBe(true);
    }
    expect(layout.deviceFiles.length).toBeGreaterThan(0);
    expect(layout.deviceFiles.every((entry) => entry.scope === 'exact')).toBe(true);
    expect(layout.deviceFiles).toContainEqual({ path: '/dev/null', scope: 'exact' });
  });

  it('carries the git redirections into readOnly (a .git file as its own exact entry) and the roots and home as hints, in every mode', async () => {
    const linked = path.join(root, 'linked-worktree');
    await fs.mkdir(linked, { recursive: true });
    await fs.writeFile(path.join(linked, '.git'), `gitdir: ${path.join(root, 'store/worktrees/linked')}\n`);
    const temp = path.join(root, 'temp-hint');
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const layout = deriveSandboxLayout(createSandboxPolicy({ mode, workspaceRoots: [ws, linked], homeDirectory: home, tempRoots: [temp] }));
      expect(layout.sessionRoots, mode).toStrictEqual([ws, linked, temp]);
      expect(layout.homeDirectory, mode).toBe(home);
      expect(layout.readOnly, mode).toContainEqual({ path: path.join(linked, '.git'), scope: 'exact' });
      expect(layout.readOnly, mode).toContainEqual({ path: path.join(root, 'store/worktrees/linked/commondir'), scope: 'subtree' });
      for (const name of ['commondir', 'config.worktree', 'worktrees']) {
        expect(layout.readOnly, `${mode} ${name}`).toContainEqual({ path: path.join(ws, '.git', name), scope: 'subtree' });
      }
    }
  });

  it('full-access makes / writable and read-only makes nothing writable', () => {
    const full = deriveSandboxLayout(createSandboxPolicy({ mode: 'full-access', workspaceRoots: [ws], homeDirectory: home, tempRoots: [] }));
    expect(full.writable).toStrictEqual([{ path: '/', scope: 'subtree' }]);
    const readOnly = deriveSandboxLayout(createSandboxPolicy({ mode: 'read-only', workspaceRoots: [ws], homeDirectory: home, tempRoots: [] }));
    expect(readOnly.writable).toStrictEqual([]);
    // Tier 3 below the roots holds in read-only mode too (a grant on the root must not open them).
    expect(readOnly.readOnly).toContainEqual({ path: path.join(ws, '.git/hooks'), scope: 'subtree' });
  });
});
