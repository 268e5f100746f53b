import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkAccess,
  createSandboxPolicy,
  defaultSensitiveRootEntries,
  deriveSandboxLayout,
  gitRedirectionNames,
  gitSensitiveNames,
  sensitiveKindOf,
  sensitiveNameRules,
  workTreeSensitiveNames,
  type CreateSandboxPolicyOptions,
  type SandboxActor,
} from '../index.js';

// Tier 3 by kind, at any depth below a writable root (architecture §3.2 tier 3, §3.10).

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-kinds-')));
const home = path.join(root, 'home');
const ws = path.join(root, 'ws');
const extra = path.join(root, 'extra');
const temp = path.join(root, 'tmp');
const outside = path.join(root, 'outside');
for (const folder of [home, ws, extra, temp, outside]) fs.mkdirSync(folder, { recursive: true });

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function policy(extraOptions: Partial<CreateSandboxPolicyOptions> = {}) {
  return createSandboxPolicy({
    workspaceRoots: [ws],
    extraWritableRoots: [extra],
    tempRoots: [temp],
    homeDirectory: home,
    executableSearchPath: '',
    letterCase: 'sensitive',
    ...extraOptions,
  });
}

function write(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
}

const actors: readonly SandboxActor[] = ['file-tool', 'process'];
const depths = [1, 2, 3, 4, 5, 6];
const nested = (base: string, depth: number): string => path.join(base, ...Array.from({ length: depth }, (_, index) => `d${index + 1}`));

/** Each kind's name rule as a path below a repository work tree, and the kind it must report. */
const kindPaths: ReadonlyArray<readonly [string, string]> = [
  ['.git/hooks/pre-commit', 'git-hooks'],
  ['.git/hooks', 'git-hooks'],
  ['.git/config', 'git-config'],
  ['.git/config.worktree', 'git-config'],
  ['.git/commondir', 'git-commondir'],
  ['.git/worktrees/linked/commondir', 'git-worktrees'],
  ['.git/worktrees', 'git-worktrees'],
  ['.git/modules/sub/config', 'git-modules'],
  ['.git/modules/sub/hooks/post-checkout', 'git-modules'],
  ['.git', 'git-file'],
  ['.envrc', 'envrc'],
  ['.vscode', 'vscode'],
  ['.vscode/tasks.json', 'vscode'],
  ['.idea', 'idea'],
  ['.idea/workspace.xml', 'idea'],
];

/** What `git commit`, `checkout`, `fetch` write in a git directory: never a kind. */
const gitWorkFiles = ['.git/objects/ab/cdef', '.git/refs/heads/main', '.git/refs/heads/main.lock', '.git/index', '.git/index.lock', '.git/HEAD', '.git/logs/HEAD', '.git/COMMIT_EDITMSG', '.git/config.lock.not', '.git/packed-refs', '.git/FETCH_HEAD'];

describe('one table of git names (architecture §3.10)', () => {
  it('the root entries, the redirection scan and the rules at any depth all derive from it (modules included)', () => {
    const names = gitSensitiveNames.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['hooks', 'config', 'config.worktree', 'commondir', 'worktrees', 'modules']));
    expect([...gitRedirectionNames]).toEqual(names);
    expect([...defaultSensitiveRootEntries]).toEqual([...names.map((name) => `.git/${name}`), ...workTreeSensitiveNames.map((entry) => entry.name)]);
    expect(defaultSensitiveRootEntries).toContain('.git/modules');
    for (const entry of gitSensitiveNames) {
      expect(sensitiveNameRules.some((rule) => rule.names.join('/') === `.git/${entry.name}` && rule.kind === entry.kind), entry.name).toBe(true);
    }
    for (const entry of workTreeSensitiveNames) expect(sensitiveNameRules.some((rule) => rule.names.join('/') === entry.name)).toBe(true);
    expect(deriveSandboxLayout(policy()).sensitiveKinds?.names).toBe(sensitiveNameRules);
  });
});

describe('tier 3 by kind at any depth (architecture §3.10)', () => {
  it('depth 1–6 below every writable root and an ordinary write grant: sensitive, escalatable, with the retry text — for both actors', () => {
    const p = policy({ grants: [{ path: outside, access: 'write', scope: 'subtree' }] });
    let checked = 0;
    for (const base of [ws, extra, temp, outside]) {
      for (const depth of depths) {
        for (const [name, kind] of kindPaths) {
          const target = path.join(nested(base, depth), name);
          for (const actor of actors) {
            const decision = checkAccess(p, target, 'write', actor, { tool: 'write' });
            const label = `${actor} ${target}`;
            expect(decision, label).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true, suggestedGrant: { path: target, access: 'write', scope: 'exact' } });
            expect(decision.allowed === false && decision.message, label).toBe(
              `Permission denied: ${target} is a sensitive path (changing it runs code outside the sandbox later). To get access, call write again with sandboxPermissions {"paths":[{"path":${JSON.stringify(target)},"access":"write","scope":"exact"}]} and a one-line justification; the user will be asked.`,
            );
            // Readable, like every tier 3 path.
            expect(checkAccess(p, target, 'read', actor).allowed, label).toBe(true);
            checked += 1;
          }
          expect(sensitiveKindOf(p, target), target).toBe(kind);
        }
      }
    }
    expect(checked).toBe(4 * 6 * kindPaths.length * 2);
  });

  it('the rest of every .git at any depth stays writable (git commit, checkout, fetch), and look-alike names are no kind', () => {
    const p = policy();
    for (const depth of depths) {
      for (const name of [...gitWorkFiles, '.envrc.local', '.vscode-not/x', '.idea.bak', 'x.git/hooks/a', '.gitignore', '.github/workflows/ci.yml', 'hooks/pre-commit', 'config']) {
        const target = path.join(nested(ws, depth), name);
        for (const actor of actors) expect(checkAccess(p, target, 'write', actor), `${actor} ${target}`).toMatchObject({ allowed: true, tier: 'writable-root' });
        expect(sensitiveKindOf(p, target), target).toBeUndefined();
      }
    }
  });

  it('a .git that is a file or a link at depth is protected as the entry itself (what it points to is judged where it lands)', () => {
    const worktree = path.join(ws, 'a/b/linked');
    write(path.join(worktree, '.git'), `gitdir: ${path.join(ws, 'store/worktrees/linked')}\n`);
    const linked = path.join(ws, 'a/c/linked-repo');
    fs.mkdirSync(linked, { recursive: true });
    fs.symlinkSync(path.join(ws, 'store'), path.join(linked, '.git'));
    const p = policy();
    for (const entry of [path.join(worktree, '.git'), path.join(linked, '.git')]) {
      for (const actor of actors) expect(checkAccess(p, entry, 'write', actor), entry).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
      expect(sensitiveKindOf(p, entry)).toBe('git-file');
    }
  });

  it('letter case: on a case-insensitive volume every spelling is the kind; on a case-sensitive one only the exact one', () => {
    const folded = policy({ letterCase: 'insensitive' });
    const exact = policy({ letterCase: 'sensitive' });
    for (const name of ['a/.GIT/Hooks/pre-commit', 'a/b/.Git/CONFIG', 'a/.git/MODULES/x', 'a/b/c/.VSCode/tasks.json', 'a/.ENVRC', 'a/.IDEA/x.xml', 'a/b/.GIT']) {
      const target = path.join(ws, name);
      expect(checkAccess(folded, target, 'write', 'process'), name).toMatchObject({ allowed: false, tier: 'sensitive' });
      expect(sensitiveKindOf(folded, target), name).toBeDefined();
      expect(checkAccess(exact, target, 'write', 'process').allowed, name).toBe(true);
    }
  });

  it('in full-access the kinds hold everywhere; in read-only nothing is writable and the tier says why', () => {
    const full = policy({ mode: 'full-access' });
    expect(checkAccess(full, path.join(outside, 'p/q/.git/hooks/pre-push'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(full, path.join(outside, 'p/q/.git/objects/x'), 'write', 'process').allowed).toBe(true);
    const readOnly = policy({ mode: 'read-only' });
    expect(checkAccess(readOnly, path.join(ws, 'p/.git/hooks/pre-push'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'outside', sandboxDenied: true });
  });
});

describe('grants and kinds: most specific rule wins (architecture §3.3)', () => {
  const hook = path.join(ws, 'p/q/.git/hooks/pre-commit');
  const vscode = path.join(ws, 'p/.vscode');

  it('a grant at or below the entry reopens it; a grant on an ancestor does not', () => {
    const at = (grantPath: string, scope: 'exact' | 'subtree') => policy({ grants: [{ path: grantPath, access: 'write', scope }] });
    expect(checkAccess(at(hook, 'exact'), hook, 'write', 'file-tool')).toMatchObject({ allowed: true, tier: 'sensitive' });
    expect(checkAccess(at(path.dirname(hook), 'subtree'), hook, 'write', 'process').allowed).toBe(true);
    expect(checkAccess(at(path.dirname(hook), 'exact'), hook, 'write', 'process').allowed).toBe(false);
    for (const ancestor of [path.join(ws, 'p/q/.git'), path.join(ws, 'p/q'), path.join(ws, 'p')]) {
      expect(checkAccess(at(ancestor, 'subtree'), hook, 'write', 'process').allowed, ancestor).toBe(false);
    }
    // The `.git` entry itself: a grant naming it reopens the entry, not what is below it.
    const dotGit = path.join(ws, 'p/q/.git');
    expect(checkAccess(at(dotGit, 'exact'), dotGit, 'write', 'process').allowed).toBe(true);
    expect(checkAccess(at(dotGit, 'subtree'), path.join(dotGit, 'config'), 'write', 'process').allowed).toBe(false);
    // A grant on .vscode reopens .vscode, not a repository's hooks inside it.
    expect(checkAccess(at(vscode, 'subtree'), path.join(vscode, 'tasks.json'), 'write', 'process').allowed).toBe(true);
    expect(checkAccess(at(vscode, 'subtree'), path.join(vscode, 'r/.git/hooks/x'), 'write', 'process').allowed).toBe(false);
    // Outside the writable roots, an ordinary grant's tree keeps its kinds protected.
    expect(checkAccess(at(outside, 'subtree'), path.join(outside, 'r/.envrc'), 'write', 'process').allowed).toBe(false);
    expect(checkAccess(at(path.join(outside, 'r/.envrc'), 'exact'), path.join(outside, 'r/.envrc'), 'write', 'process').allowed).toBe(true);
  });

  it('tier 1 is never reopened, whatever the kind', () => {
    const own = path.join(ws, '.openwork/.vscode/tasks.json');
    const granted = policy({ grants: [{ path: own, access: 'write', scope: 'exact' }] });
    expect(checkAccess(granted, own, 'write', 'process')).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
  });

  it('sensitiveKindOf takes the policy or its layout, ignores grants, and names the outermost kind', () => {
    const p = policy({ grants: [{ path: hook, access: 'write', scope: 'exact' }] });
    expect(sensitiveKindOf(p, hook)).toBe('git-hooks');
    expect(sensitiveKindOf(deriveSandboxLayout(p), hook)).toBe('git-hooks');
    expect(sensitiveKindOf(p, path.join(vscode, 'r/.git/config'))).toBe('vscode');
    expect(sensitiveKindOf(p, path.join(ws, 'p/src/a.ts'))).toBeUndefined();
  });
});

describe('core.hooksPath folders of every repository, read from the host at each check', () => {
  it('a nested repository at any depth: its hooks folder (and husky’s parent), through includes, a git file and the global config', () => {
    const repo = path.join(ws, 'g/a/b/c/projD');
    write(path.join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
    write(path.join(repo, '.git/config'), '[core]\n\tbare = false\n[include]\n\tpath = ../shared.gitconfig\n');
    write(path.join(repo, 'shared.gitconfig'), '[core]\n\thooksPath = .husky/_\n');
    const viaFile = path.join(ws, 'g/e/worktree');
    const store = path.join(ws, 'g/e/store');
    write(path.join(store, 'HEAD'), 'ref: refs/heads/main\n');
    write(path.join(store, 'config'), '[core]\n\thooksPath = tools/hooks\n');
    write(path.join(viaFile, '.git'), `gitdir: ${store}\n`);
    const globalRepo = path.join(ws, 'g/f/app');
    write(path.join(globalRepo, '.git/HEAD'), 'ref: refs/heads/main\n');
    write(path.join(home, '.gitconfig'), '[core]\n\thooksPath = .githooks\n');
    try {
      const p = policy();
      const protectedFiles = [
        path.join(repo, '.husky/pre-commit'),
        path.join(repo, '.husky/_/husky.sh'),
        path.join(repo, '.husky'),
        path.join(viaFile, 'tools/hooks/pre-push'),
        path.join(globalRepo, '.githooks/post-checkout'),
        path.join(repo, '.githooks/x'),
      ];
      for (const file of protectedFiles) {
        for (const actor of actors) expect(checkAccess(p, file, 'write', actor), `${actor} ${file}`).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
        expect(sensitiveKindOf(p, file), file).toBe('hooks-path');
      }
      for (const file of [path.join(repo, 'src/a.ts'), path.join(repo, '.huskyx/a'), path.join(viaFile, 'tools/other'), path.join(ws, 'g/.husky/x')]) {
        expect(checkAccess(p, file, 'write', 'process').allowed, file).toBe(true);
        expect(sensitiveKindOf(p, file), file).toBeUndefined();
      }
      // A grant naming the hooks folder reopens it.
      const granted = policy({ grants: [{ path: path.join(repo, '.husky'), access: 'write', scope: 'subtree' }] });
      expect(checkAccess(granted, path.join(repo, '.husky/pre-commit'), 'write', 'file-tool').allowed).toBe(true);
    } finally {
      fs.rmSync(path.join(home, '.gitconfig'));
    }
  });

  it("a hook manager's configuration in every work tree at any depth, in the letter case of the volume; the policy's scan lists it for Seatbelt", () => {
    const repo = path.join(ws, 'm/a/b/c/svc');
    write(path.join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
    const linked = path.join(ws, 'm/linked');
    write(path.join(linked, '.git'), `gitdir: ${path.join(repo, '.git')}\n`);
    const p = policy();
    // Each file and the entry that protects it (a script folder protects what is in it).
    const managed: ReadonlyArray<readonly [string, string]> = [
      [path.join(repo, '.pre-commit-config.yaml'), path.join(repo, '.pre-commit-config.yaml')],
      [path.join(repo, '.pre-commit-config.yml'), path.join(repo, '.pre-commit-config.yml')],
      [path.join(repo, 'lefthook-local.toml'), path.join(repo, 'lefthook-local.toml')],
      [path.join(repo, '.config/lefthook.jsonc'), path.join(repo, '.config/lefthook.jsonc')],
      [path.join(repo, '.lefthook/pre-push/check.sh'), path.join(repo, '.lefthook')],
      [path.join(repo, 'husky.config.js'), path.join(repo, 'husky.config.js')],
      [path.join(linked, '.huskyrc'), path.join(linked, '.huskyrc')],
    ];
    for (const [file, entry] of managed) {
      for (const actor of actors) expect(checkAccess(p, file, 'write', actor), `${actor} ${file}`).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
      expect(sensitiveKindOf(p, file), file).toBe('hook-manager-config');
      // A grant on the entry reopens everything it protects.
      const granted = policy({ grants: [{ path: entry, access: 'write', scope: 'subtree' }] });
      expect(checkAccess(granted, file, 'write', 'file-tool').allowed, file).toBe(true);
    }
    // Below the work tree, in a folder without `.git`, and look-alike names: ordinary files.
    for (const file of [path.join(repo, 'docs/.pre-commit-config.yaml'), path.join(ws, 'm/.pre-commit-config.yaml'), path.join(repo, 'lefthook.yml.bak'), path.join(repo, '.config/other.yml')]) {
      expect(checkAccess(p, file, 'write', 'process').allowed, file).toBe(true);
      expect(sensitiveKindOf(p, file), file).toBeUndefined();
    }
    // A case-insensitive volume: every spelling.
    const folded = policy({ letterCase: 'insensitive' });
    expect(sensitiveKindOf(folded, path.join(repo, '.Pre-Commit-Config.YAML'))).toBe('hook-manager-config');
    expect(sensitiveKindOf(p, path.join(repo, '.Pre-Commit-Config.YAML'))).toBeUndefined();
    // The scan at policy time (what Seatbelt's profile names) lists them for the workspace's own repository.
    const own = policy({ workspaceRoots: [repo] });
    expect(deriveSandboxLayout(own).readOnly).toEqual(expect.arrayContaining([{ path: path.join(repo, '.pre-commit-config.yaml'), scope: 'subtree' }, { path: path.join(repo, '.lefthook'), scope: 'subtree' }]));
  });

  it('nothing is cached: a hooksPath set after the policy was built is seen at the next check', () => {
    const repo = path.join(ws, 'later/x/y/repo');
    write(path.join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
    write(path.join(repo, '.git/config'), '[core]\n');
    const p = policy();
    const hookFile = path.join(repo, 'scripts/pre-commit');
    expect(checkAccess(p, hookFile, 'write', 'file-tool').allowed).toBe(true);
    write(path.join(repo, '.git/config'), '[core]\n\thooksPath = scripts\n');
    expect(checkAccess(p, hookFile, 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'sensitive' });
    write(path.join(repo, '.git/config'), '[core]\n');
    expect(checkAccess(p, hookFile, 'write', 'file-tool').allowed).toBe(true);
  });

  it('fails closed: a configuration that exists but cannot be read whole protects every path of its work tree', () => {
    const repo = path.join(ws, 'broken/r');
    write(path.join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
    fs.mkdirSync(path.join(repo, '.git/config'), { recursive: true }); // a folder where the file should be
    const p = policy();
    const file = path.join(repo, 'src/a.ts');
    expect(checkAccess(p, file, 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
    expect(sensitiveKindOf(p, file)).toBe('hooks-path');
    const granted = policy({ grants: [{ path: file, access: 'write', scope: 'exact' }] });
    expect(checkAccess(granted, file, 'write', 'process').allowed).toBe(true);
    expect(checkAccess(p, path.join(ws, 'broken/elsewhere.txt'), 'write', 'process').allowed).toBe(true);
  });
});
