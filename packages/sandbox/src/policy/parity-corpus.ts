import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { canonicalizePathSync } from './canonicalize-path.js';
import { createSandboxPolicy } from './create-sandbox-policy.js';
import type { LetterCase, NetworkAccess, PathGrant, SandboxMode, SandboxPolicy } from './sandbox-policy.js';

/** One path of the corpus, as a process or a tool would name it, and what it resolves to. */
export interface ParityCorpusEntry {
  /** Absolute path as written (may go through symbolic links, may not exist). */
  readonly input: string;
  /** `canonicalizePath(input, may-create)`: what the policy is asked about. */
  readonly canonical: string;
  /** Whether the canonical path existed when the corpus was built. */
  readonly exists: boolean;
  /** True for device files (`/dev/null` …): writable for processes, never for file tools. */
  readonly device: boolean;
}

/**
 * Which fixture to build. `standard`: a workspace repository, a home whose dotfiles are partly
 * symbolic links (to a file, a folder, dangling, outside), git redirections (a `core.hooksPath`
 * folder, an included config, a temp root whose `.git` is a git file). `workspace-is-home`: the
 * same tree with the home directory as the workspace root. `linked-root-names`: the standard tree
 * whose workspace root has a symbolic link at every protected root name (see `linksInRoots`).
 */
export type ParityCorpusVariant = 'standard' | 'workspace-is-home' | 'linked-root-names';

/** Settings of a corpus policy besides mode and grants. */
export interface ParityPolicySettings {
  readonly letterCase?: LetterCase;
  readonly network?: NetworkAccess;
}

/** A named set of grants to run the corpus with (architecture §3.4: "with and without grants"). */
export interface ParityGrantSet {
  readonly name: string;
  readonly grants: readonly PathGrant[];
}

/**
 * A fixture tree plus the paths to check in it. The same corpus drives `checkAccess`, the SBPL
 * evaluator, real `sandbox-exec` and real bubblewrap (architecture §3.4 parity tests).
 */
export interface ParityCorpus {
  readonly root: string;
  readonly home: string;
  readonly workspace: string;
  readonly extraRoot: string;
  readonly tempRoot: string;
  readonly outside: string;
  readonly openworkHome: string;
  readonly skillRoot: string;
  readonly variant: ParityCorpusVariant;
  /**
   * Symbolic links at protected names directly in a session root or its `.git` (only in
   * `linked-root-names`): a kernel that cannot protect a link itself must not run there.
   */
  readonly linksInRoots: readonly string[];
  readonly entries: readonly ParityCorpusEntry[];
  /**
   * Folders named by the `core.hooksPath` of repositories below a writable root that the policy's
   * scan does not reach (nested repositories): the fence protects them by kind, found per
   * repository when it judges a write; Seatbelt cannot name them by pattern and keeps what the
   * policy resolved (architecture §3.10, the one documented difference of the kind rules).
   */
  readonly hooksFoldersAtDepth: readonly string[];
  /** Inputs canonicalisation refuses (dangling symbolic links on the way): never checked, always denied. */
  readonly refused: readonly string[];
  readonly modes: readonly SandboxMode[];
  readonly grantSets: readonly ParityGrantSet[];
  /**
   * The policy of the fixture for one mode, optionally with grants of this call. The letter case
   * is detected from the fixture's volume unless given; the network is `allow` unless given.
   */
  policyFor(mode: SandboxMode, grants?: readonly PathGrant[], settings?: ParityPolicySettings): SandboxPolicy;
}

async function write(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

/**
 * Build the parity fixture under `tempRoot` (which must exist and be empty or fresh) and the list
 * of paths: every tier, every root, existing and missing names, symbolic links in and out, chains,
 * sibling prefixes (`ws2`, `ws_backup`), dotted names that are not traversal, protected names that
 * do not exist yet (`.vscode`, `.idea`, `.git/hooks` in the extra root), device files.
 */
export async function buildParityCorpus(tempRoot: string, variant: ParityCorpusVariant = 'standard'): Promise<ParityCorpus> {
  const root = await fs.realpath(tempRoot);
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  const extraRoot = path.join(root, 'extra');
  const tempDir = path.join(root, 'tmp');
  const outside = path.join(root, 'outside');
  const openworkHome = path.join(home, '.openwork');
  const skillRoot = path.join(home, 'skills');

  // Fake home: credentials, shell start-up files, OpenWork home with spill/, a skill root.
  await write(path.join(home, '.ssh/id_rsa'), 'PRIVATE KEY\n');
  await write(path.join(home, '.ssh/config'), 'Host *\n');
  await write(path.join(home, '.aws/credentials'), '[default]\n');
  await write(path.join(home, '.netrc'), 'machine example.com\n');
  await write(path.join(home, '.bashrc'), '# bashrc\n');
  await write(path.join(home, '.gitconfig'), '[user]\n');
  await write(path.join(home, '.config/fish/config.fish'), '# fish\n');
  await write(path.join(home, '.config/other/settings.json'), '{}\n');
  await write(path.join(home, 'notes.txt'), 'notes\n');
  await write(path.join(openworkHome, 'spill/session-1/call-1.txt'), 'spilled\n');
  await write(path.join(openworkHome, 'config.json'), '{}\n');
  await write(path.join(skillRoot, 'my-skill/SKILL.md'), '# skill\n');

  // Workspace: a git repository with hooks, .envrc, its own .openwork, dotted names, links.
  await write(path.join(workspace, '.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(workspace, '.git/config'), '[core]\n');
  await write(path.join(workspace, '.git/hooks/pre-commit'), '#!/bin/sh\n');
  await write(path.join(workspace, '.git/objects/ab/cdef'), 'object\n');
  await write(path.join(workspace, '.git/refs/heads/main'), '0000\n');
  await write(path.join(workspace, '.git/logs/HEAD'), 'log\n');
  await write(path.join(workspace, '.envrc'), 'export A=1\n');
  await write(path.join(workspace, '.openwork/state.json'), '{}\n');
  await write(path.join(workspace, 'src/main.ts'), 'export {};\n');
  await write(path.join(workspace, '..test'), 'dots\n');
  await write(path.join(workspace, 'a..b/file.txt'), 'dots\n');
  await write(path.join(workspace, 'Case/File.TXT'), 'case\n');
  // Siblings with the workspace as a string prefix: must not be inside it (peers.md).
  await write(path.join(root, 'ws2/file.txt'), 'sibling\n');
  await write(path.join(root, 'ws_backup/file.txt'), 'sibling\n');
  // Extra writable root: a repository whose .git/hooks does not exist yet.
  await write(path.join(extraRoot, '.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(extraRoot, 'data.txt'), 'data\n');
  await write(path.join(tempDir, 'scratch.txt'), 'scratch\n');
  await write(path.join(outside, 'secret.txt'), 'outside\n');
  await write(path.join(outside, 'dir/nested.txt'), 'outside\n');

  const links: Array<[string, string]> = [
    [path.join(workspace, 'link-out'), outside],
    [path.join(workspace, 'file-link-out'), path.join(outside, 'secret.txt')],
    [path.join(workspace, 'link-in'), path.join(workspace, 'src')],
    [path.join(workspace, 'chain-1'), path.join(workspace, 'chain-2')],
    [path.join(workspace, 'chain-2'), outside],
    [path.join(outside, 'chain-back'), path.join(workspace, 'src')],
    [path.join(workspace, 'link-ssh'), path.join(home, '.ssh')],
    [path.join(workspace, 'link-ssh-key'), path.join(home, '.ssh/id_rsa')],
    [path.join(workspace, 'link-hooks'), path.join(workspace, '.git/hooks')],
    [path.join(workspace, 'link-openwork-home'), openworkHome],
    [path.join(workspace, 'link-skill'), skillRoot],
    [path.join(workspace, 'dangling'), path.join(outside, 'missing-target')],
    [path.join(root, 'tmp-alias'), tempDir],
    [path.join(home, 'link-bashrc'), path.join(home, '.bashrc')],
  ];
  for (const [link, target] of links) await fs.symlink(target, link);

  // Dotfile managers link protected names in home (architecture §3.2): the entry is protected as
  // well as what it points to — a link to a file, to a folder (credential), dangling, outside;
  // and a skill root (tier 1) given through a link.
  await write(path.join(home, 'dotfiles/zshrc'), '# zshrc\n');
  await write(path.join(home, 'dotfiles/kube/config'), 'clusters: []\n');
  await write(path.join(outside, 'zlogin'), '# zlogin\n');
  await write(path.join(outside, 'skills-data/linked-skill/SKILL.md'), '# linked skill\n');
  const homeLinks: Array<[string, string]> = [
    [path.join(home, '.zshrc'), 'dotfiles/zshrc'],
    [path.join(home, '.kube'), 'dotfiles/kube'],
    [path.join(home, '.profile'), 'dotfiles/profile'],
    [path.join(home, '.zlogin'), path.join(outside, 'zlogin')],
    [path.join(home, 'linked-skills'), path.join(outside, 'skills-data')],
  ];
  for (const [link, target] of homeLinks) await fs.symlink(target, link);

  // Git redirections (architecture §3.2): a hooks folder and an included file named by the
  // workspace's config, and a temp root whose .git is a git file naming a git directory elsewhere.
  await fs.appendFile(path.join(workspace, '.git/config'), '\thooksPath = .husky\n[include]\n\tpath = ../shared.gitconfig\n');
  await write(path.join(workspace, '.husky/pre-commit'), '#!/bin/sh\n');
  await write(path.join(workspace, 'shared.gitconfig'), '[alias]\n\tst = status\n');
  const gitStore = path.join(root, 'gitdir-store');
  await write(path.join(gitStore, 'HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(gitStore, 'config'), '[core]\n');
  await write(path.join(gitStore, 'hooks/post-checkout'), '#!/bin/sh\n');
  await write(path.join(gitStore, 'index'), 'index\n');
  await write(path.join(tempDir, '.git'), `gitdir: ${gitStore}\n`);

  // Tier 3 by kind at any depth (architecture §3.10): nested repositories at depth 1–6 in the
  // workspace, one in the extra and one in the temp root, a git file and a link as `.git` at depth,
  // `.envrc`/`.vscode`/`.idea` at depth, other spellings, and a nested repository whose
  // `core.hooksPath` names a folder (which only the fence finds, per repository).
  const depthBases: string[] = [];
  const depthFiles: string[] = [];
  for (let depth = 1; depth <= 6; depth += 1) {
    const repository = path.join(workspace, 'projects', ...Array.from({ length: depth }, (_, index) => `level${index + 1}`));
    await write(path.join(repository, '.git/HEAD'), 'ref: refs/heads/main\n');
    await write(path.join(repository, '.git/config'), '[core]\n');
    await write(path.join(repository, '.git/objects/ab/cdef'), 'object\n');
    depthBases.push(repository, path.join(repository, '.git'), path.join(repository, '.git/hooks'));
    depthFiles.push(
      ...['.git/config', '.git/config.worktree', '.git/commondir', '.git/worktrees/w/gitdir', '.git/modules/m/config', '.git/modules/m/hooks/post-checkout', '.git/index', '.git/index.lock', '.git/refs/heads/main', '.git/logs/HEAD', '.git/HEAD', '.envrc', '.vscode/tasks.json', '.idea/workspace.xml', 'src/a.ts'].map((name) => path.join(repository, name)),
    );
  }
  await write(path.join(workspace, 'projects/level1/vendored/.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(extraRoot, 'nested/repo/.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(tempDir, 'clone/repo/.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(workspace, 'projects/worktree/.git'), `gitdir: ${path.join(workspace, 'projects/level1/.git/worktrees/w')}\n`);
  await fs.mkdir(path.join(workspace, 'projects/linked'), { recursive: true });
  await fs.symlink(path.join(workspace, 'projects/level1/.git'), path.join(workspace, 'projects/linked/.git'));
  const huskyRepository = path.join(workspace, 'projects/level1/level2/web');
  await write(path.join(huskyRepository, '.git/HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(huskyRepository, '.git/config'), '[core]\n\thooksPath = .husky/_\n');
  await write(path.join(huskyRepository, '.husky/pre-commit'), '#!/bin/sh\n');
  const hooksFoldersAtDepth = [path.join(huskyRepository, '.husky'), path.join(huskyRepository, '.husky/_')];
  depthBases.push(
    path.join(workspace, 'projects/level1/vendored'),
    path.join(workspace, 'projects/level1/vendored/.git'),
    path.join(extraRoot, 'nested/repo/.git'),
    path.join(tempDir, 'clone/repo/.git'),
    path.join(tempDir, 'clone/repo/.git/hooks'),
    path.join(workspace, 'projects/worktree'),
    path.join(workspace, 'projects/linked'),
    huskyRepository,
    path.join(huskyRepository, '.husky'),
    path.join(huskyRepository, '.husky/_'),
  );
  depthFiles.push(
    path.join(workspace, 'projects/worktree/.git'),
    path.join(workspace, 'projects/linked/.git'),
    path.join(workspace, 'projects/level1/.GIT/hooks/pre-commit'),
    path.join(workspace, 'projects/level1/level2/.Git/Config'),
    path.join(workspace, 'projects/level1/level2/level3/.VSCODE/tasks.json'),
    path.join(workspace, 'projects/level1/.Envrc'),
    path.join(workspace, 'a/b/c/d/e/f/.envrc'),
    path.join(workspace, 'a/b/c/d/e/f/.vscode'),
    path.join(workspace, 'a/b/c/.idea/misc.xml'),
    path.join(workspace, 'a/x.git/hooks/pre-commit'),
    path.join(workspace, 'a/.gitignore'),
    path.join(workspace, 'a/.envrc.local'),
    path.join(outside, 'repo/.git/hooks/pre-commit'),
    path.join(outside, 'repo/.envrc'),
  );

  // linked-root-names: a link at every protected root name of the workspace, and in its .git.
  const linksInRoots: string[] = [];
  if (variant === 'linked-root-names') {
    await fs.rm(path.join(workspace, '.envrc'));
    await fs.rm(path.join(workspace, '.openwork'), { recursive: true });
    await fs.rename(path.join(workspace, '.git/config'), path.join(workspace, 'git-config'));
    await write(path.join(workspace, 'shared/vscode/settings.json'), '{}\n');
    await write(path.join(outside, 'idea/workspace.xml'), '<project/>\n');
    await write(path.join(root, 'ws-state/state.json'), '{}\n');
    const rootLinks: Array<[string, string]> = [
      [path.join(workspace, '.vscode'), 'shared/vscode'],
      [path.join(workspace, '.envrc'), 'missing-envrc'],
      [path.join(workspace, '.idea'), path.join(outside, 'idea')],
      [path.join(workspace, '.openwork'), path.join(root, 'ws-state')],
      [path.join(workspace, '.git/config'), '../git-config'],
    ];
    for (const [link, target] of rootLinks) {
      await fs.symlink(target, link);
      linksInRoots.push(link);
    }
  }

  const bases = [
    root,
    home,
    path.join(home, '.ssh'),
    path.join(home, '.aws'),
    path.join(home, '.config'),
    path.join(home, '.config/fish'),
    path.join(home, '.config/gh'),
    path.join(home, '.gnupg'),
    openworkHome,
    path.join(openworkHome, 'spill'),
    path.join(openworkHome, 'spill/session-1'),
    skillRoot,
    path.join(skillRoot, 'my-skill'),
    workspace,
    path.join(workspace, '.git'),
    path.join(workspace, '.git/hooks'),
    path.join(workspace, '.git/objects'),
    path.join(workspace, '.git/refs/heads'),
    path.join(workspace, '.openwork'),
    path.join(workspace, '.vscode'),
    path.join(workspace, '.idea'),
    path.join(workspace, 'src'),
    path.join(workspace, 'a..b'),
    path.join(workspace, 'Case'),
    path.join(workspace, 'link-out'),
    path.join(workspace, 'link-in'),
    path.join(workspace, 'chain-1'),
    path.join(workspace, 'link-ssh'),
    path.join(workspace, 'link-hooks'),
    path.join(workspace, 'link-openwork-home'),
    path.join(workspace, 'link-skill'),
    path.join(outside, 'chain-back'),
    path.join(home, '.kube'),
    path.join(home, 'dotfiles'),
    path.join(home, 'linked-skills'),
    path.join(workspace, '.husky'),
    gitStore,
    path.join(gitStore, 'hooks'),
    path.join(root, 'ws2'),
    path.join(root, 'ws_backup'),
    extraRoot,
    path.join(extraRoot, '.git'),
    path.join(extraRoot, '.git/hooks'),
    tempDir,
    path.join(root, 'tmp-alias'),
    outside,
    path.join(outside, 'dir'),
  ];
  const suffixes = ['', 'new.txt', 'new-dir/deep/new.txt', '.hidden', 'config', '..test', 'a..b'];
  const specific = [
    path.join(home, '.ssh/id_rsa'),
    path.join(home, '.ssh/config'),
    path.join(home, '.aws/credentials'),
    path.join(home, '.netrc'),
    path.join(home, '.git-credentials'),
    path.join(home, '.npmrc'),
    path.join(home, '.bashrc'),
    path.join(home, '.zshrc'),
    path.join(home, '.profile'),
    path.join(home, '.gitconfig'),
    path.join(home, 'link-bashrc'),
    path.join(home, 'notes.txt'),
    path.join(home, 'Library/Keychains/login.keychain-db'),
    path.join(home, '.config/fish/config.fish'),
    path.join(home, '.config/other/settings.json'),
    path.join(openworkHome, 'config.json'),
    path.join(openworkHome, 'spill/session-1/call-1.txt'),
    path.join(skillRoot, 'my-skill/SKILL.md'),
    path.join(workspace, '.git/HEAD'),
    path.join(workspace, '.git/config'),
    path.join(workspace, '.git/config.lock'),
    path.join(workspace, '.git/commondir'),
    path.join(workspace, '.git/config.worktree'),
    path.join(workspace, '.git/worktrees/linked/commondir'),
    path.join(workspace, '.husky/pre-commit'),
    path.join(workspace, 'shared.gitconfig'),
    path.join(home, '.zshrc'),
    path.join(home, '.zlogin'),
    path.join(home, 'dotfiles/zshrc'),
    path.join(home, '.kube/config'),
    path.join(outside, 'zlogin'),
    path.join(tempDir, '.git'),
    path.join(gitStore, 'config'),
    path.join(gitStore, 'index'),
    path.join(gitStore, 'commondir'),
    path.join(gitStore, 'config.worktree'),
    path.join(workspace, '.git/index'),
    path.join(workspace, '.git/index.lock'),
    path.join(workspace, '.git/COMMIT_EDITMSG'),
    path.join(workspace, '.git/logs/HEAD'),
    path.join(workspace, '.git/logs/refs/heads/main'),
    path.join(workspace, '.git/refs/heads/main'),
    path.join(workspace, '.git/refs/heads/main.lock'),
    path.join(workspace, '.git/objects/ab/cdef'),
    path.join(workspace, '.git/hooks/pre-commit'),
    path.join(workspace, '.envrc'),
    path.join(workspace, '.envrc.local'),
    path.join(workspace, '.openwork/state.json'),
    path.join(workspace, '.openwork-not'),
    path.join(workspace, '.vscode/settings.json'),
    path.join(workspace, '.idea/workspace.xml'),
    path.join(workspace, 'src/main.ts'),
    path.join(workspace, 'file-link-out'),
    path.join(workspace, 'link-ssh-key'),
    path.join(workspace, 'Case/File.TXT'),
    path.join(workspace, 'case/file.txt'),
    path.join(workspace, 'C:\\Windows\\system32'),
    path.join(workspace, '~'),
    path.join(workspace, '~/notes.txt'),
    path.join(extraRoot, '.envrc'),
    path.join(extraRoot, 'data.txt'),
    path.join(tempDir, 'scratch.txt'),
    path.join(tempDir, '.envrc'),
    path.join(outside, 'secret.txt'),
    // Other spellings of protected names: the same entries on a case-insensitive volume.
    path.join(workspace, '.GIT/config'),
    path.join(workspace, '.Git/hooks/pre-commit'),
    path.join(workspace, '.git/HOOKS/post-merge'),
    path.join(workspace, '.VSCODE/tasks.json'),
    path.join(workspace, '.Envrc'),
    path.join(workspace, '.OpenWork/state.json'),
    path.join(extraRoot, '.GIT/hooks/pre-push'),
    path.join(home, '.SSH/id_rsa'),
    path.join(home, '.Aws/credentials'),
    path.join(home, '.BASHRC'),
    path.join(home, '.OPENWORK/config.json'),
    '/',
    '/etc/hostname',
    '/usr/bin/env',
  ];
  const devices = ['/dev/null', '/dev/zero', '/dev/tty'];
  const inputs = new Set<string>();
  for (const base of bases) {
    for (const suffix of suffixes) inputs.add(suffix === '' ? base : `${base}/${suffix}`);
  }
  for (const input of specific) inputs.add(input);
  for (const base of depthBases) {
    for (const suffix of ['', 'new.txt', 'config', 'hooks/pre-push', '.envrc']) inputs.add(suffix === '' ? base : `${base}/${suffix}`);
  }
  for (const input of depthFiles) inputs.add(input);

  const entries: ParityCorpusEntry[] = [];
  const refused: string[] = [];
  for (const input of inputs) {
    const resolution = canonicalizePathSync(input, { cwd: '/', intent: 'may-create' });
    if (!resolution.ok) {
      refused.push(input);
      continue;
    }
    const exists = await fs.lstat(resolution.path).then(() => true, () => false);
    entries.push(Object.freeze({ input, canonical: resolution.path, exists, device: false }));
  }
  for (const device of devices) entries.push(Object.freeze({ input: device, canonical: device, exists: true, device: true }));
  for (const input of [path.join(workspace, 'dangling'), path.join(workspace, 'dangling/new.txt'), path.join(home, '.profile')]) refused.push(input);

  const policyFor = (mode: SandboxMode, grants: readonly PathGrant[] = [], settings: ParityPolicySettings = {}): SandboxPolicy =>
    createSandboxPolicy({
      ...settings,
      mode,
      homeDirectory: home,
      workspaceRoots: variant === 'workspace-is-home' ? [home] : [workspace],
      extraWritableRoots: variant === 'workspace-is-home' ? [extraRoot, workspace] : [extraRoot],
      tempRoots: [tempDir],
      skillRoots: [skillRoot, path.join(home, 'linked-skills')],
      grants,
    });

  const grantSets: ParityGrantSet[] = [
    { name: 'no grants', grants: [] },
    {
      name: 'sensitive and credential grants',
      grants: [
        { path: path.join(workspace, '.git/hooks/pre-commit'), access: 'write', scope: 'exact' },
        { path: path.join(home, '.ssh/config'), access: 'read', scope: 'exact' },
        { path: path.join(home, '.aws'), access: 'write', scope: 'subtree' },
        { path: path.join(home, '.bashrc'), access: 'write', scope: 'exact' },
      ],
    },
    {
      name: 'grants at and above kinds at depth',
      grants: [
        { path: path.join(workspace, 'projects/level1/level2/.git/hooks'), access: 'write', scope: 'subtree' },
        { path: path.join(workspace, 'projects/level1/.git/config'), access: 'write', scope: 'exact' },
        { path: path.join(workspace, 'projects/level1/level2/level3/.git'), access: 'write', scope: 'subtree' },
        { path: path.join(workspace, 'a/b/c/d/e/f/.vscode'), access: 'write', scope: 'subtree' },
        { path: path.join(outside, 'repo'), access: 'write', scope: 'subtree' },
      ],
    },
    {
      name: 'outside and hard-protected grants',
      grants: [
        { path: outside, access: 'write', scope: 'subtree' },
        { path: home, access: 'write', scope: 'subtree' },
        { path: path.join(openworkHome, 'spill'), access: 'write', scope: 'subtree' },
        { path: skillRoot, access: 'write', scope: 'subtree' },
        { path: path.join(workspace, '.openwork/state.json'), access: 'write', scope: 'exact' },
      ],
    },
  ];

  return Object.freeze({
    root,
    home,
    workspace,
    extraRoot,
    tempRoot: tempDir,
    outside,
    openworkHome,
    skillRoot,
    variant,
    linksInRoots: Object.freeze(linksInRoots),
    entries: Object.freeze(entries),
    hooksFoldersAtDepth: Object.freeze(hooksFoldersAtDepth),
    refused: Object.freeze([...new Set(refused)]),
    modes: Object.freeze(['read-only', 'workspace-write', 'full-access'] as const),
    grantSets: Object.freeze(grantSets),
    policyFor,
  });
}
