import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SeatbeltEvaluator,
  createSandboxPolicy,
  deriveSandboxLayout,
  parseSeatbeltProfile,
  renderSeatbeltProfile,
  seatbeltArguments,
  withGrants,
  type SeatbeltExpression,
} from '../index.js';

let root: string;
let ws: string;
let home: string;

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'ow-seatbelt-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(ws);
  await fs.mkdir(home);
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function render(mode: 'read-only' | 'workspace-write' | 'full-access' = 'workspace-write') {
  const policy = withGrants(createSandboxPolicy({ mode, workspaceRoots: [ws], homeDirectory: home, tempRoots: [] }), [
    { path: path.join(ws, '.git/hooks/pre-commit'), access: 'write', scope: 'exact' },
    { path: path.join(home, '.ssh/config'), access: 'read', scope: 'exact' },
  ]);
  return renderSeatbeltProfile(deriveSandboxLayout(policy));
}

function walk(expression: SeatbeltExpression, visit: (expression: SeatbeltExpression) => void): void {
  visit(expression);
  if (expression.type === 'list') for (const item of expression.items) walk(item, visit);
}

describe('Seatbelt profile (architecture §3.4)', () => {
  it('paths appear only as -D parameters, never inlined in the profile', () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      const profile = render(mode);
      const strings: string[] = [];
      for (const expression of parseSeatbeltProfile(profile.profile)) {
        walk(expression, (node) => {
          if (node.type === 'string') strings.push(node.value);
        });
      }
      expect(strings.filter((value) => value.startsWith('/'))).toEqual([]);
      expect(profile.profile).not.toContain(root);
      expect(Object.values(profile.parameters)).toContain(path.join(ws, '.openwork'));
    }
  });

  it('has no deny rule but the default: exclusions are folded into the allow rules', () => {
    const rules = parseSeatbeltProfile(render().profile).filter((expression) => expression.type === 'list');
    const heads = rules.map((rule) => (rule.type === 'list' && rule.items[0]?.type === 'symbol' ? rule.items[0].name : ''));
    expect(heads.filter((name) => name === 'deny')).toHaveLength(1);
    expect(render().profile).toMatch(/^\(deny default\)$/m);
    expect(render().profile).toMatch(/\(allow file-write\* \(require-all \(subpath \(param "WRITABLE_ROOT_0"\)\)( \(require-not \((literal|subpath) \(param "READ_ONLY_\d+"\)\)\))+\)\)/);
  });

  it('protected subtrees are excluded by literal and subpath, so mkdir of a missing .vscode is stopped too', () => {
    const profile = render();
    const vscode = Object.entries(profile.parameters).find(([, value]) => value === path.join(ws, '.vscode'));
    expect(vscode).toBeDefined();
    const name = vscode?.[0] ?? '';
    expect(profile.profile).toContain(`(require-not (literal (param "${name}")))`);
    expect(profile.profile).toContain(`(require-not (subpath (param "${name}")))`);
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    expect(evaluator.decide('file-write*', path.join(ws, '.vscode'))).toBe('deny');
    expect(evaluator.decide('file-write*', path.join(ws, '.vscode/settings.json'))).toBe('deny');
  });

  it('credential reads are excluded inside the allow file-read* rule, and read grants reopen what they name', () => {
    const profile = render();
    expect(profile.profile).toMatch(/\(allow file-read\* \(require-all \(subpath \(param "READ_ROOT_0"\)\) \(require-not/);
    const evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
    expect(evaluator.decide('file-read*', path.join(home, '.ssh/id_rsa'))).toBe('deny');
    expect(evaluator.decide('file-read*', path.join(home, '.ssh/config'))).toBe('allow');
    expect(evaluator.decide('file-write*', path.join(ws, '.git/hooks/pre-commit'))).toBe('allow');
    expect(evaluator.decide('file-write*', '/dev/null')).toBe('allow');
  });

  it('contains no network statement at all', () => {
    for (const mode of ['read-only', 'workspace-write', 'full-access'] as const) {
      expect(render(mode).profile).not.toMatch(/network/);
    }
  });

  it('argv is sandbox-exec -p <profile> -D NAME=value … -- <argv>', () => {
    const profile = render();
    const argv = seatbeltArguments(profile, ['/bin/bash', '-c', 'echo hi']);
    expect(argv.slice(0, 3)).toEqual(['/usr/bin/sandbox-exec', '-p', profile.profile]);
    expect(argv.slice(-4)).toEqual(['--', '/bin/bash', '-c', 'echo hi']);
    const definitions = argv.slice(3, -4);
    expect(definitions.length).toBe(Object.keys(profile.parameters).length * 2);
    for (let index = 0; index < definitions.length; index += 2) {
      expect(definitions[index]).toBe('-D');
      const [name, ...value] = (definitions[index + 1] ?? '').split('=');
      expect(profile.parameters[name ?? '']).toBe(value.join('='));
    }
  });
});
