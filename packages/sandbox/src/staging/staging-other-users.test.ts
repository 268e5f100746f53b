import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compileSourcesForChild } from '../bubblewrap/test-support/compile-sources-for-child.js';
import { makeTempDirectory } from '../bubblewrap/test-support/run-wrapped.js';
import { canSwitchUser, giveTo, openBuildToAll, runAsUser, throwawayUid } from './test-support/as-other-user.js';

// Each case runs a real OpenWork process (the package compiled from these sources) as a throwaway
// uid with no passwd entry, through the real bwrap, the real stage helper and real overlays.
let build: string;
let base: string;
let uid: number;

beforeAll(async () => {
  if (!canSwitchUser()) throw new Error('the other-user tests run a child as another uid: run them as root (CI does)');
  build = await compileSourcesForChild();
  openBuildToAll(build);
}, 120_000);

afterAll(() => {
  fs.rmSync(build, { recursive: true, force: true });
});

beforeEach(async () => {
  base = await makeTempDirectory('ow-other-users-');
  uid = throwawayUid();
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
  for (const parent of ['/dev/shm', '/var/tmp']) {
    for (const name of fs.readdirSync(parent)) {
      if (name === `openwork-${uid}` || name.startsWith(`openwork-${uid}.`)) fs.rmSync(`${parent}/${name}`, { recursive: true, force: true });
    }
  }
});

/** The victim's own folders: HOME, a workspace in it (or HOME itself), TMPDIR; all owned by `uid`. */
function userFolders(options: { readonly homeIsWorkspace?: boolean } = {}) {
  const home = path.join(base, 'home');
  const workspace = options.homeIsWorkspace === true ? home : path.join(home, 'project');
  const temp = path.join(base, 'tmp');
  for (const folder of [home, workspace, temp]) fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(workspace, 'kept.txt'), 'mine\n');
  // Every folder on the way is the user's: overlayfs cannot copy up a folder whose owner is not
  // mapped in the sandbox's user namespace (a root-owned parent inside /tmp answers EOVERFLOW).
  giveTo(base, uid);
  return { home, workspace, openworkHome: path.join(home, '.openwork'), temp };
}

describe('any uid (a container run as `-u 12345`: no passwd entry)', () => {
  it('passes the self-check and runs a staged bash call', async () => {
    const folders = userFolders();
    const result = await runAsUser(build, uid, { ...folders, script: 'echo ok > made.txt' });
    expect(result.uid).toBe(uid);
    expect(result.availability).toEqual({ available: true });
    expect(result.call?.code).toBe(0);
    expect(result.workspace).toContain('made.txt');
    expect(fs.readFileSync(path.join(folders.workspace, 'made.txt'), 'utf8')).toBe('ok\n');
  }, 60_000);

  it('with HOME as the workspace (staged outside the OpenWork home)', async () => {
    const folders = userFolders({ homeIsWorkspace: true });
    const result = await runAsUser(build, uid, { ...folders, script: 'echo ok > made.txt' });
    expect(result.availability).toEqual({ available: true });
    expect(result.call).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(folders.workspace, 'made.txt'), 'utf8')).toBe('ok\n');
  }, 60_000);
});

/** Another local user (here root) made the victim's shared folder names first. */
function squat(kind: 'folder' | 'file'): string[] {
  const names = [`/dev/shm/openwork-${uid}`, `/var/tmp/openwork-${uid}`];
  for (const name of names) {
    if (kind === 'file') fs.writeFileSync(name, 'not yours\n');
    else {
      fs.mkdirSync(`${name}/staging`, { recursive: true });
      fs.chmodSync(name, 0o777);
      fs.chmodSync(`${name}/staging`, 0o777);
      // What the other user left there: a victim that used the folder would have reaped it (no such process).
      fs.mkdirSync(`${name}/staging/999999999-AbC123`);
    }
  }
  return names;
}

describe("another local user's folder at the victim's staging names (HOME as the workspace: staged outside the OpenWork home)", () => {
  it('a folder made first by another user is never used: the call stages in a private folder of its own', async () => {
    const squatted = squat('folder');
    const folders = userFolders({ homeIsWorkspace: true });
    const result = await runAsUser(build, uid, { ...folders, script: 'echo ok > made.txt' });
    expect(result.availability).toEqual({ available: true });
    expect(result.call).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(folders.workspace, 'made.txt'), 'utf8')).toBe('ok\n');
    // Nothing of the victim's ever went through the other user's folders.
    for (const name of squatted) expect(fs.readdirSync(`${name}/staging`)).toEqual(['999999999-AbC123']);
    const own = fs.readdirSync('/var/tmp').filter((name) => name.startsWith(`openwork-${uid}.`));
    expect(own).toHaveLength(1);
    const stats = fs.lstatSync(`/var/tmp/${own[0]!}`);
    expect([stats.uid, stats.mode & 0o777]).toEqual([uid, 0o700]);
  }, 60_000);

  it("the user's own file at the name (one `write` in full-access mode) does not make bash unavailable either", async () => {
    for (const name of squat('file')) fs.chownSync(name, uid, uid);
    const folders = userFolders({ homeIsWorkspace: true });
    const result = await runAsUser(build, uid, { ...folders, script: 'echo ok > made.txt' });
    expect(result.availability).toEqual({ available: true });
    expect(result.call).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(folders.workspace, 'made.txt'), 'utf8')).toBe('ok\n');
  }, 60_000);

  it('a file at the name does not make bash unavailable', async () => {
    squat('file');
    const folders = userFolders({ homeIsWorkspace: true });
    const result = await runAsUser(build, uid, { ...folders, script: 'echo ok > made.txt' });
    expect(result.availability).toEqual({ available: true });
    expect(result.call).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(folders.workspace, 'made.txt'), 'utf8')).toBe('ok\n');
  }, 60_000);
});

describe('credentials created later, for a user without privileges (the helper makes whiteouts as that user)', () => {
  it('a HOME outside every writable root is shown with its missing credentials hidden, and the call runs', async () => {
    // Outside /tmp (a temp root, overlaid): HOME is then read-only, shown through the masking overlay.
    const outside = fs.mkdtempSync('/var/tmp/ow-other-users-');
    try {
      const home = path.join(outside, 'home');
      const workspace = path.join(home, 'project');
      const temp = path.join(outside, 'tmp');
      for (const folder of [workspace, temp]) fs.mkdirSync(folder, { recursive: true });
      giveTo(outside, uid);
      const result = await runAsUser(build, uid, { workspace, home, openworkHome: path.join(home, '.openwork'), temp, script: 'ls -a ~ > listing.txt; cat ~/.aws/credentials 2>&1 | head -1 > aws.txt' });
      expect(result.availability).toEqual({ available: true });
      expect(result.call).toMatchObject({ code: 0 });
      expect(fs.readFileSync(path.join(workspace, 'listing.txt'), 'utf8').split('\n').filter(Boolean).sort()).toEqual(['.', '..', '.openwork', 'project']);
      expect(fs.readFileSync(path.join(workspace, 'aws.txt'), 'utf8')).toMatch(/No such file or directory/);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);
});
