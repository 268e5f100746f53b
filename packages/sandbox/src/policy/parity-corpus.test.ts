import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SeatbeltEvaluator,
  canonicalizePathSync,
  checkAccess,
  deriveSandboxLayout,
  protectedParents,
  renderSeatbeltProfile,
  resolveCheckedPathSync,
  seatbeltArguments,
  sensitiveKindOf,
} from '../index.js';
import { buildParityCorpus, type ParityCorpus } from '../testing.js';
import { seatbeltAllowsWrite } from '../seatbelt/test-support/seatbelt-allows-write.js';

let temp: string;
let corpus: ParityCorpus;
const letterCases = ['sensitive', 'insensitive'] as const;

beforeAll(async () => {
  temp = await fs.mkdtemp(path.join(os.tmpdir(), 'ow-parity-'));
  corpus = await buildParityCorpus(temp);
});

afterAll(async () => {
  await fs.rm(temp, { recursive: true, force: true });
});

function isInHooksFolderAtDepth(corpus: ParityCorpus, canonical: string): boolean {
  return corpus.hooksFoldersAtDepth.some((folder) => canonical === folder || canonical.startsWith(`${folder}/`));
}

/** Fence against the SBPL evaluator over the generated profile, for every mode, grant set, letter case, actor and path. */
function compareWithSeatbelt(corpus: ParityCorpus): number {
  let compared = 0;
  for (const mode of corpus.modes) {
    for (const [grantSet, letterCase] of corpus.grantSets.flatMap((set) => letterCases.map((letters) => [set, letters] as const))) {
      const policy = corpus.policyFor(mode, grantSet.grants, { letterCase });
      const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const actor of ['file-tool', 'process'] as const) {
        for (const entry of corpus.entries) {
          const label = `${corpus.variant} / ${mode} / ${grantSet.name} / ${letterCase} / ${actor} / ${entry.input}`;
          const read = checkAccess(policy, entry.canonical, 'read', actor).allowed;
          expect(read, `read ${label}`).toBe(evaluator.decide('file-read*', entry.canonical) === 'allow');
          const write = checkAccess(policy, entry.canonical, 'write', actor).allowed;
          const kernelWrite = seatbeltAllowsWrite(evaluator, entry.canonical);
          // The intended differences: device files are writable for processes only; the hooks
          // folder of a nested repository is found by the fence alone (architecture §3.10).
          const fenceOnly = kernelWrite && isInHooksFolderAtDepth(corpus, entry.canonical) && sensitiveKindOf(policy, entry.canonical) === 'hooks-path';
          const expected = (actor === 'file-tool' && entry.device && mode !== 'full-access') || fenceOnly ? false : kernelWrite;
          expect(write, `write ${label}`).toBe(expected);
          compared += 2;
        }
      }
    }
  }
  return compared;
}

describe('parity (architecture §3.4)', () => {
  it('the corpus covers at least 300 paths: missing ones, ones through symlinks, every tier', () => {
    expect(corpus.entries.length).toBeGreaterThanOrEqual(300);
    expect(corpus.entries.filter((entry) => !entry.exists).length).toBeGreaterThan(100);
    expect(corpus.entries.filter((entry) => entry.input !== entry.canonical && !entry.device).length).toBeGreaterThan(40);
    const tiers = new Set(corpus.entries.map((entry) => checkAccess(corpus.policyFor('workspace-write'), entry.canonical, 'write', 'process').tier));
    expect([...tiers].sort()).toEqual(['credential', 'hard-protected', 'outside', 'sensitive', 'writable-root']);
    expect(corpus.refused.length).toBeGreaterThan(0);
    for (const input of corpus.refused) {
      expect(canonicalizePathSync(input, { cwd: '/', intent: 'may-create' })).toMatchObject({ ok: false, problem: 'dangling-symlink' });
    }
  });

  it('acc_10a file tool fence and seatbelt agree on every path, in every variant of the tree', async () => {
    let compared = 0;
    for (const variant of ['standard', 'workspace-is-home', 'linked-root-names'] as const) {
      const built = variant === 'standard' ? corpus : await buildParityCorpus(await fs.mkdtemp(path.join(temp, `${variant}-`)), variant);
      compared += compareWithSeatbelt(built);
    }
    expect(compared).toBeGreaterThanOrEqual(3 * 300 * 3 * 3 * 2 * 2 * 2);
    // Pure CPU (tens of thousands of evaluator runs): a bound for a loaded shared machine, not a speed goal.
  }, 240_000);

  it('acc_10a the variants hold what they promise: links at protected names, home as the workspace', async () => {
    expect(corpus.linksInRoots).toEqual([]);
    const linked = await buildParityCorpus(await fs.mkdtemp(path.join(temp, 'linked-')), 'linked-root-names');
    expect(linked.linksInRoots.map((link) => path.relative(linked.root, link)).sort()).toEqual(['ws/.envrc', 'ws/.git/config', 'ws/.idea', 'ws/.openwork', 'ws/.vscode']);
    for (const link of linked.linksInRoots) {
      expect((await fs.lstat(link)).isSymbolicLink()).toBe(true);
      for (const mode of linked.modes) expect(checkAccess(linked.policyFor(mode), link, 'write', 'process').allowed, `${mode} ${link}`).toBe(false);
    }
    const home = await buildParityCorpus(await fs.mkdtemp(path.join(temp, 'home-')), 'workspace-is-home');
    expect(home.policyFor('workspace-write').workspaceRoots).toEqual([home.home]);
    for (const name of ['.zshrc', '.kube', '.profile', '.zlogin', 'linked-skills']) {
      expect((await fs.lstat(path.join(corpus.home, name))).isSymbolicLink(), name).toBe(true);
    }
  });

  it('acc_10a letter case: with insensitive matching every spelling of a protected name is protected, by the fence and by Seatbelt', () => {
    const spellings = corpus.entries.filter((entry) => /\/\.(GIT|Git|VSCODE|Envrc|OpenWork|SSH|Aws|BASHRC|OPENWORK)(\/|$)|\/HOOKS\//.test(entry.input));
    expect(spellings.length).toBeGreaterThanOrEqual(11);
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const folded = corpus.policyFor(mode, [], { letterCase: 'insensitive' });
      const exact = corpus.policyFor(mode, [], { letterCase: 'sensitive' });
      const profile = renderSeatbeltProfile(deriveSandboxLayout(folded));
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const entry of spellings) {
        const folder = entry.canonical.toLowerCase();
        const credential = /\/\.(ssh|aws)\//.test(folder);
        const access = credential ? 'read' : 'write';
        const decision = checkAccess(folded, entry.canonical, access, 'process');
        expect(decision.allowed, `${mode} ${access} ${entry.input}`).toBe(false);
        expect(decision.tier, entry.input).toBe(checkAccess(folded, entry.canonical.replace(/\/\.[A-Za-z]+/g, (name) => name.toLowerCase()).replace('/HOOKS/', '/hooks/'), access, 'process').tier);
        expect(evaluator.decide(credential ? 'file-read*' : 'file-write*', entry.canonical), `${mode} ${entry.input}`).toBe('deny');
      }
      // Where the spelling is writable at all, the case-sensitive policy lets it be written: the rule is what denies.
      expect(spellings.some((entry) => checkAccess(exact, entry.canonical, 'write', 'process').allowed)).toBe(true);
    }
  });

  it('acc_10a moves: every folder between a writable root and a protected or credential entry can be neither moved away nor replaced', () => {
    const parentOf = (value: string): string => path.posix.dirname(value);
    let compared = 0;
    for (const mode of corpus.modes) {
      for (const [grantSet, letterCase] of corpus.grantSets.flatMap((set) => letterCases.map((letters) => [set, letters] as const))) {
        const policy = corpus.policyFor(mode, grantSet.grants, { letterCase });
        const layout = deriveSandboxLayout(policy);
        const profile = renderSeatbeltProfile(layout);
        const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
        // The folders, derived here independently of the renderer: from each protected or credential
        // entry up to and including each writable root that holds it (never `/`).
        const folders = new Set<string>();
        for (const region of layout.writable.filter((entry) => entry.scope === 'subtree')) {
          for (const entry of [...layout.readOnly, ...layout.unreadable]) {
            if (entry.path === region.path || !(region.path === '/' || entry.path.startsWith(`${region.path}/`))) continue;
            for (let folder = parentOf(entry.path); folder !== '/'; folder = parentOf(folder)) {
              folders.add(folder);
              if (folder === region.path) break;
            }
          }
        }
        if (mode !== 'read-only') expect(folders.size, `${mode} ${grantSet.name}`).toBeGreaterThan(0);
        for (const folder of folders) {
          const label = `${mode} / ${grantSet.name} / ${letterCase} / ${folder}`;
          expect(checkAccess(policy, folder, 'write', 'process').allowed, label).toBe(false);
          expect(checkAccess(policy, folder, 'write', 'file-tool').allowed, label).toBe(false);
          expect(evaluator.decideRename(folder, `${folder}.moved`), `move away ${label}`).toBe('deny');
          expect(evaluator.decideRename(`${folder}.prepared`, folder), `move onto ${label}`).toBe('deny');
          expect(evaluator.decide('file-write-unlink', folder), `remove ${label}`).toBe('deny');
          expect(evaluator.decide('file-write-create', folder), `create ${label}`).toBe('deny');
          compared += 1;
        }
      }
    }
    const fullAccess = deriveSandboxLayout(corpus.policyFor('full-access'));
    for (const named of [path.join(corpus.workspace, '.git'), corpus.workspace, path.join(corpus.home, '.config'), corpus.home, corpus.root]) {
      expect(protectedParents(fullAccess).map((entry) => entry.path), named).toContain(named);
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('acc_10a moves: a folder that holds nothing protected still moves, for the fence and for Seatbelt', () => {
    for (const mode of ['workspace-write', 'full-access'] as const) {
      const policy = corpus.policyFor(mode);
      const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const folder of [path.join(corpus.workspace, 'src'), path.join(corpus.workspace, '.git/objects'), path.join(corpus.extraRoot, 'data.txt')]) {
        expect(checkAccess(policy, folder, 'write', 'process').allowed, `${mode} ${folder}`).toBe(true);
        expect(evaluator.decideRename(folder, `${folder}.moved`), `${mode} ${folder}`).toBe('allow');
      }
    }
  });

  it('acc_10a tier 3 by kind at depth: the corpus holds every kind below every root, the fence and Seatbelt deny them alike, and git keeps working', () => {
    const policy = corpus.policyFor('workspace-write', [], { letterCase: 'insensitive' });
    const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    const layout = deriveSandboxLayout(policy);
    const byNameOnly = { ...layout, sensitiveKinds: { names: layout.sensitiveKinds?.names ?? [], repositoryHooksFolders: false } };
    const kinds = new Map<string, number>();
    for (const entry of corpus.entries) {
      const kind = sensitiveKindOf(policy, entry.canonical);
      if (kind === undefined || !entry.canonical.includes('/projects/') && !entry.canonical.includes('/a/b/c/') && !entry.canonical.includes('/nested/') && !entry.canonical.includes('/clone/')) continue;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      expect(checkAccess(policy, entry.canonical, 'write', 'process'), entry.input).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
      // Seatbelt names every kind by pattern but a nested repository's hooks folder.
      expect(seatbeltAllowsWrite(evaluator, entry.canonical), entry.input).toBe(sensitiveKindOf(byNameOnly, entry.canonical) === undefined);
    }
    expect([...kinds.keys()].sort()).toEqual(['envrc', 'git-commondir', 'git-config', 'git-file', 'git-hooks', 'git-modules', 'git-worktrees', 'hooks-path', 'idea', 'vscode']);
    for (const name of ['.git/index', '.git/index.lock', '.git/refs/heads/main', '.git/logs/HEAD', '.git/HEAD', '.git/objects/ab/cdef', 'src/a.ts']) {
      for (const depth of [1, 6]) {
        const file = path.join(corpus.workspace, 'projects', ...Array.from({ length: depth }, (_, index) => `level${index + 1}`), name);
        expect(checkAccess(policy, file, 'write', 'process').allowed, file).toBe(true);
        expect(seatbeltAllowsWrite(evaluator, file), file).toBe(true);
      }
    }
  });

  it('acc_10a grants change the answers (the corpus exercises them)', () => {
    const plain = corpus.policyFor('workspace-write');
    const granted = corpus.policyFor('workspace-write', corpus.grantSets[1]?.grants ?? []);
    const changed = corpus.entries.filter(
      (entry) => checkAccess(plain, entry.canonical, 'write', 'process').allowed !== checkAccess(granted, entry.canonical, 'write', 'process').allowed,
    );
    expect(changed.length).toBeGreaterThan(0);
  });

  it('acc_10b credential directories are unreadable for every actor', () => {
    const credentialInputs = corpus.entries.filter((entry) => entry.canonical.startsWith(`${corpus.home}/.ssh`) || entry.canonical.startsWith(`${corpus.home}/.aws`) || entry.canonical === `${corpus.home}/.netrc`);
    expect(credentialInputs.some((entry) => entry.input.startsWith(corpus.workspace))).toBe(true);
    for (const mode of corpus.modes) {
      const policy = corpus.policyFor(mode);
      const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
      const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
      for (const entry of credentialInputs) {
        for (const actor of ['file-tool', 'process'] as const) {
          expect(checkAccess(policy, entry.canonical, 'read', actor).allowed, `${mode} ${actor} ${entry.input}`).toBe(false);
        }
        expect(evaluator.decide('file-read*', entry.canonical)).toBe('deny');
        // read, grep, glob and list all resolve through the same function: one answer for all.
        const resolved = resolveCheckedPathSync(policy, entry.input, { cwd: corpus.workspace, intent: 'may-create', access: 'read', tool: 'grep' });
        expect(resolved).toMatchObject({ status: 'denied', decision: { tier: 'credential', sandboxDenied: true } });
      }
    }
  });

  it.skipIf(process.platform !== 'darwin')('acc_10a real sandbox-exec agrees with the fence (macOS only: needs /usr/bin/sandbox-exec)', () => {
    for (const mode of corpus.modes) {
      const policy = corpus.policyFor(mode);
      const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
      for (const entry of corpus.entries.filter((candidate) => !candidate.device && candidate.exists).slice(0, 60)) {
        const probe = (script: string): boolean => {
          const argv = seatbeltArguments(profile, ['/bin/sh', '-c', script, 'probe', entry.input]);
          try {
            execFileSync(argv[0] as string, argv.slice(1), { stdio: 'ignore' });
            return true;
          } catch {
            return false;
          }
        };
        const isDirectory = probe('test -d "$1"');
        const read = probe(isDirectory ? 'ls "$1" >/dev/null' : 'cat "$1" >/dev/null');
        expect(read, `${mode} read ${entry.input}`).toBe(checkAccess(policy, entry.canonical, 'read', 'process').allowed);
        if (!isDirectory) {
          const write = probe(': >> "$1"');
          expect(write, `${mode} write ${entry.input}`).toBe(checkAccess(policy, entry.canonical, 'write', 'process').allowed);
        }
      }
    }
  });
});
