import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SandboxConfigurationError,
  SeatbeltEvaluator,
  canonicalizePathSync,
  checkAccess,
  createSandboxPolicy,
  deriveSandboxLayout,
  detectLetterCase,
  renderSeatbeltProfile,
  type LetterCase,
} from '../index.js';
import { mountCaseInsensitiveVolume } from './test-support/case-insensitive-volume.js';

let root: string;
let ws: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-letter-case-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(path.join(ws, '.git/hooks'), { recursive: true });
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const policy = (letterCase: LetterCase, mode: 'workspace-write' | 'full-access' = 'workspace-write') =>
  createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [], letterCase });

describe('letter case in the fence', () => {
  it('insensitive: other spellings of protected names are protected, with the tier and text of the name itself', () => {
    const folded = policy('insensitive');
    expect(checkAccess(folded, path.join(ws, '.GIT/config'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'sensitive', sandboxDenied: true });
    expect(checkAccess(folded, path.join(ws, '.Git/Hooks/pre-commit'), 'write', 'process')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(folded, path.join(ws, '.VSCODE/tasks.json'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(folded, path.join(ws, '.OPENWORK/state.json'), 'write', 'file-tool')).toMatchObject({
      allowed: false,
      tier: 'hard-protected',
      sandboxDenied: false,
      message: `Permission denied: ${path.join(ws, '.OPENWORK/state.json')} is protected and cannot be changed by tools.`,
    });
    expect(checkAccess(folded, path.join(home, '.SSH/id_ed25519'), 'read', 'file-tool')).toMatchObject({ allowed: false, tier: 'credential' });
    // The text names the path as the model gave it; case is never changed (peers.md).
    const denied = checkAccess(folded, path.join(ws, '.GIT/config'), 'write', 'file-tool');
    expect(denied.allowed ? '' : denied.message).toContain(path.join(ws, '.GIT/config'));
  });

  it('sensitive: only the exact spelling is protected', () => {
    const exact = policy('sensitive');
    expect(checkAccess(exact, path.join(ws, '.GIT/config'), 'write', 'file-tool')).toMatchObject({ allowed: true, tier: 'writable-root' });
    expect(checkAccess(exact, path.join(ws, '.git/config'), 'write', 'file-tool')).toMatchObject({ allowed: false, tier: 'sensitive' });
    expect(checkAccess(exact, path.join(home, '.SSH/id_ed25519'), 'read', 'file-tool').allowed).toBe(true);
  });

  it('folding never widens: roots and grants keep their exact spelling', () => {
    const folded = createSandboxPolicy({
      workspaceRoots: [ws],
      homeDirectory: home,
      tempRoots: [],
      letterCase: 'insensitive',
      grants: [{ path: path.join(home, '.ssh/config'), access: 'read', scope: 'exact' }],
    });
    expect(checkAccess(folded, path.join(ws.toUpperCase(), 'x'), 'write', 'file-tool').allowed).toBe(false);
    expect(checkAccess(folded, path.join(home, '.ssh/config'), 'read', 'file-tool').allowed).toBe(true);
    expect(checkAccess(folded, path.join(home, '.SSH/config'), 'read', 'file-tool').allowed).toBe(false);
  });

  it('the folders holding protected entries are matched in every spelling too', () => {
    expect(checkAccess(policy('insensitive'), path.join(ws, '.GIT'), 'write', 'process')).toMatchObject({ allowed: false, sandboxDenied: false });
    expect(checkAccess(policy('sensitive'), path.join(ws, '.GIT'), 'write', 'process').allowed).toBe(true);
  });
});

describe('choosing the letter case', () => {
  it('macOS and Windows fold case without probing; a case-sensitive Linux folder does not', () => {
    expect(detectLetterCase([ws], 'darwin')).toBe('insensitive');
    expect(detectLetterCase([ws], 'win32')).toBe('insensitive');
    expect(detectLetterCase([ws, home, path.join(root, 'missing')], 'linux')).toBe('sensitive');
  });

  it('createSandboxPolicy detects it unless given, and refuses unknown values with what to pass instead', () => {
    const detected = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    expect(detected.letterCase).toBe(process.platform === 'darwin' || process.platform === 'win32' ? 'insensitive' : 'sensitive');
    expect(policy('insensitive').letterCase).toBe('insensitive');
    expect(() => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, letterCase: 'lower' as LetterCase })).toThrow(SandboxConfigurationError);
    expect(() => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, letterCase: 'lower' as LetterCase })).toThrow(/'sensitive' or 'insensitive'/);
  });

  it("network defaults to 'allow'; 'none' is kept through grants; anything else is refused", () => {
    const base = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [] });
    expect(base.network).toBe('allow');
    const offline = createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, tempRoots: [], network: 'none', grants: [{ path: path.join(root, 'out'), access: 'write', scope: 'exact' }] });
    expect(offline.network).toBe('none');
    expect(deriveSandboxLayout(offline).network).toBe('none');
    expect(() => createSandboxPolicy({ workspaceRoots: [ws], homeDirectory: home, network: 'off' as 'none' })).toThrow(/network must be 'allow' or 'none'/);
  });
});

const mounted = mountCaseInsensitiveVolume();
const volume = 'volume' in mounted ? mounted.volume : undefined;
const skipReason = 'unavailable' in mounted ? ` — SKIPPED: ${mounted.unavailable}` : '';
afterAll(() => volume?.unmount());

describe.skipIf(volume === undefined)(`on a real case-insensitive volume (loop-mounted exFAT)${skipReason}`, () => {
  let vws: string;
  let vhome: string;

  beforeAll(async () => {
    const base = (volume as { path: string }).path;
    vws = path.join(base, 'ws');
    vhome = path.join(base, 'home');
    await fs.mkdir(path.join(vws, '.git/hooks'), { recursive: true });
    await fs.writeFile(path.join(vws, '.git/hooks/pre-commit'), '#!/bin/sh\n');
    await fs.writeFile(path.join(vws, '.git/config'), '[core]\n');
    await fs.mkdir(path.join(vhome, '.ssh'), { recursive: true });
    await fs.writeFile(path.join(vhome, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
  });

  afterAll(() => {
    volume?.unmount();
  });

  it('the volume really folds case: .GIT/HOOKS/pre-commit is the hook, ~/.SSH/id_ed25519 the key', async () => {
    expect(await fs.readFile(path.join(vws, '.GIT/HOOKS/pre-commit'), 'utf8')).toBe('#!/bin/sh\n');
    expect(await fs.readFile(path.join(vhome, '.SSH/id_ed25519'), 'utf8')).toBe('PRIVATE KEY\n');
  });

  it('the policy detects it and the fence protects every spelling, existing or not', () => {
    expect(detectLetterCase([vws], 'linux')).toBe('insensitive');
    const folded = createSandboxPolicy({ workspaceRoots: [vws], homeDirectory: vhome, tempRoots: [] });
    expect(folded.letterCase).toBe('insensitive');
    for (const spelling of ['.GIT/HOOKS/pre-commit', '.Git/config', '.VSCODE/tasks.json', '.ENVRC']) {
      const resolved = canonicalizePathSync(path.join(vws, spelling), { cwd: '/', intent: 'may-create' });
      expect(resolved.ok, spelling).toBe(true);
      expect(checkAccess(folded, resolved.ok ? resolved.path : '', 'write', 'file-tool').allowed, spelling).toBe(false);
    }
    const key = canonicalizePathSync(path.join(vhome, '.SSH/id_ed25519'), { cwd: '/', intent: 'must-exist' });
    expect(key.ok && checkAccess(folded, key.path, 'read', 'file-tool').allowed).toBe(false);
    expect(checkAccess(folded, path.join(vws, 'src/main.ts'), 'write', 'file-tool').allowed).toBe(true);
  });

  it('the Seatbelt profile of that policy excludes every spelling as well (evaluator)', () => {
    const folded = createSandboxPolicy({ workspaceRoots: [vws], homeDirectory: vhome, tempRoots: [] });
    const profile = renderSeatbeltProfile(deriveSandboxLayout(folded));
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    expect(evaluator.decide('file-write*', path.join(vws, '.GIT/HOOKS/pre-commit'))).toBe('deny');
    expect(evaluator.decideRename(path.join(vws, '.GIT'), path.join(vws, '.g'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(vhome, '.SSH/id_ed25519'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(vws, 'src/main.ts'))).toBe('allow');
  });
});
