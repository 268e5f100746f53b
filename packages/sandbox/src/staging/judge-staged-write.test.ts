import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPolicy } from '../policy/create-sandbox-policy.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { installStageMountHelper } from './install-stage-mount-helper.js';
import { judgeStagedWrite } from './judge-staged-write.js';
import { readOverlayOpaque } from './read-overlay-opaque.js';
import type { StagedEntryType, StagedRefusal } from './staged-writes.js';

// The judge of staged writes on its own (architecture §3.10), no bwrap: a host workspace with
// real files, an "upper layer" folder beside it holding what a command wrote, and one judgment
// per row — the entry's host path, the operation, its staged file and type.

let base: string;
let workspace: string;
let upper: string;
let policy: SandboxPolicy;

beforeAll(async () => {
  base = await makeTempDirectory('ow-judge-');
  workspace = path.join(base, 'workspace');
  upper = path.join(base, 'upper');
  fs.mkdirSync(path.join(base, 'home'));
  fs.mkdirSync(workspace);
  fs.mkdirSync(upper);
  policy = createSandboxPolicy({ mode: 'workspace-write', workspaceRoots: [workspace], homeDirectory: path.join(base, 'home'), openworkHome: path.join(base, 'openwork-home'), tempRoots: [] });
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** A host file (or link) of the workspace as it was before the command. */
function host(relative: string, content: string | { link: string }): void {
  const file = path.join(workspace, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (typeof content === 'string') fs.writeFileSync(file, content);
  else fs.symlinkSync(content.link, file);
}

/** What the command left in the upper layer at `relative`; returns its staged path. */
function staged(relative: string, content: string | { link: string } | { hardLinkOf: string }): string {
  const file = path.join(upper, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (typeof content === 'string') fs.writeFileSync(file, content);
  else if ('link' in content) fs.symlinkSync(content.link, file);
  else fs.linkSync(path.join(upper, content.hardLinkOf), file);
  return file;
}

interface Row {
  readonly why: string;
  readonly setUp: () => void;
  readonly entry: string;
  readonly operation?: StagedRefusal['operation'];
  readonly type?: StagedEntryType;
  readonly content?: string | { link: string } | { hardLinkOf: string };
  readonly allowed: boolean;
  readonly message?: RegExp;
}

const safeConfig = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n';

const rows: Row[] = [
  { why: 'an ordinary file', setUp: () => undefined, entry: 'r1/src/a.ts', content: 'x\n', allowed: true },
  { why: 'a hook of the repository', setUp: () => host('r2/.git/HEAD', 'ref: refs/heads/main\n'), entry: 'r2/.git/hooks/pre-commit', content: '#!/bin/sh\n', allowed: false },
  { why: 'a commondir file in a folder with no HEAD yet (the first of two calls)', setUp: () => undefined, entry: 'r3/plain/commondir', content: '../../elsewhere\n', allowed: false, message: /a commondir file \(git follows it/ },
  { why: 'a gitdir file anywhere', setUp: () => undefined, entry: 'r4/plain/gitdir', content: '/tmp/x/.git\n', allowed: false, message: /a gitdir file/ },
  { why: 'a HEAD that is a symbolic link beside a commondir on the host', setUp: () => host('r5/repo/commondir', '../elsewhere\n'), entry: 'r5/repo/HEAD', type: 'symlink', content: { link: '../elsewhere/HEAD' }, allowed: false, message: /the HEAD that would make its folder a git repository/ },
  { why: 'a HEAD that is a symbolic link beside a hook on the host', setUp: () => host('r6/repo/hooks/post-checkout', '#!/bin/sh\n'), entry: 'r6/repo/HEAD', type: 'symlink', content: { link: 'refs-head' }, allowed: false },
  { why: 'a HEAD file in a folder with nothing that runs', setUp: () => undefined, entry: 'r7/notes/HEAD', content: 'ref: refs/heads/main\n', allowed: true },
  { why: "a repository's config that runs nothing, a file of its own", setUp: () => host('r8/.git/HEAD', 'ref: refs/heads/main\n'), entry: 'r8/.git/config', content: safeConfig, allowed: true },
  {
    why: "a repository's config that runs nothing but is a second name of another file (`ln .git/config cfg`)",
    setUp: () => {
      host('r9/.git/HEAD', 'ref: refs/heads/main\n');
      staged('r9/cfg', safeConfig);
    },
    entry: 'r9/.git/config',
    content: { hardLinkOf: 'r9/cfg' },
    allowed: false,
    message: /a second name of another file \(a hard link\)/,
  },
  { why: 'the .envrc.local a protected .envrc loads (`source_env_if_exists .envrc.local`)', setUp: () => host('r10/.envrc', 'source_env_if_exists .envrc.local\n'), entry: 'r10/.envrc.local', content: 'export X=1\n', allowed: false, message: /r10\/\.envrc loads/ },
  { why: 'an .envrc.local no .envrc loads (an ordinary file, as for the file tools)', setUp: () => host('r10b/.envrc', 'export A=1\n'), entry: 'r10b/.envrc.local', content: 'export X=1\n', allowed: true },
  { why: 'the .env a protected .envrc loads with `dotenv`', setUp: () => host('r11/.envrc', 'dotenv\n'), entry: 'r11/.env', content: 'X=1\n', allowed: false, message: /r11\/\.envrc loads/ },
  { why: 'an .env.example beside an .envrc that loads only .env', setUp: () => host('r12/.envrc', 'dotenv\n'), entry: 'r12/.env.example', content: 'X=\n', allowed: true },
  { why: 'a file `source_env` names, below the .envrc', setUp: () => host('r13/.envrc', 'source_env_if_exists "scripts/env.sh" # local\n'), entry: 'r13/scripts/env.sh', content: 'export X=1\n', allowed: false },
  { why: 'a file `dotenv_if_exists` names', setUp: () => host('r14/.envrc', 'use node; dotenv_if_exists .env.local\n'), entry: 'r14/.env.local', content: 'X=1\n', allowed: false },
  { why: 'an .env file loaded through a variable (cannot be told: every .env* beside it counts)', setUp: () => host('r15/.envrc', 'dotenv "$ENV_FILE"\n'), entry: 'r15/.env.production', content: 'X=1\n', allowed: false },
  { why: 'another script beside an .envrc that names one', setUp: () => host('r16/.envrc', 'source_env scripts/env.sh\n'), entry: 'r16/scripts/build.sh', content: 'make\n', allowed: true },
  { why: 'an .env with no .envrc anywhere above it', setUp: () => undefined, entry: 'r17/.env', content: 'X=1\n', allowed: true },
  { why: 'removing an .envrc.local (nothing runs then)', setUp: () => host('r18/.envrc.local', 'export X=1\n'), entry: 'r18/.envrc.local', operation: 'delete', allowed: true },
];

describe('the judge of staged writes, row by row (no sandbox)', () => {
  for (const row of rows) {
    it(`${row.allowed ? 'allows' : 'refuses'} ${row.why}`, () => {
      row.setUp();
      const stagedPath = row.content === undefined ? undefined : staged(row.entry, row.content);
      const type = row.type ?? (row.content === undefined ? undefined : 'file');
      const decision = judgeStagedWrite(policy, path.join(workspace, row.entry), row.operation ?? (fs.existsSync(path.join(workspace, row.entry)) ? 'modify' : 'create'), stagedPath, type);
      expect(decision.allowed).toBe(row.allowed);
      if (!decision.allowed && row.message !== undefined) expect(decision.message).toMatch(row.message);
    });
  }
});

describe('the opaque-folder query fails closed', () => {
  it('a folder the helper cannot ask about is an error, never "not opaque"', () => {
    const helper = installStageMountHelper(path.join(base, 'openwork-home'));
    const plain = path.join(base, 'plain-folder');
    fs.mkdirSync(plain, { recursive: true });
    expect([...readOverlayOpaque(helper, [plain])]).toEqual([]); // no attribute: not opaque
    expect([...readOverlayOpaque(helper, [plain, path.join(base, 'no-such-folder')])]).toEqual([]); // gone meanwhile: nothing to remove below it
    // A mark the helper cannot read as overlayfs writes it (longer than one byte): an error.
    const odd = path.join(base, 'odd-mark');
    fs.mkdirSync(odd);
    execFileSync('python3', ['-c', 'import os, sys; os.setxattr(sys.argv[1], "user.overlay.opaque", b"yes")', odd]);
    expect(() => readOverlayOpaque(helper, [plain, odd])).toThrow(/could not read which staged folders are opaque/);
  });
});
