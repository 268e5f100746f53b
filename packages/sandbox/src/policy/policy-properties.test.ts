import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SeatbeltEvaluator,
  buildParityCorpus,
  canonicalizePathSync,
  checkAccess,
  deriveSandboxLayout,
  normalizePathText,
  renderSeatbeltProfile,
  withGrants,
  type ParityCorpus,
  type PathGrant,
  type SandboxMode,
  type SandboxPolicy,
} from '../index.js';
import { seatbeltAllowsWrite } from '../seatbelt/test-support/seatbelt-allows-write.js';

/** Fixed seed so a failure reproduces; override with FC_SEED=<n> to explore. */
const seed = Number(process.env.FC_SEED ?? 20_251_129);
const numRuns = 10_000;

let temp: string;
let corpus: ParityCorpus;
let bases: string[];

beforeAll(async () => {
  console.info(`fast-check seed ${seed} (${numRuns} runs per property)`);
  temp = await fs.mkdtemp(path.join(os.tmpdir(), 'ow-property-'));
  corpus = await buildParityCorpus(temp);
  bases = [corpus.root, corpus.home, corpus.workspace, corpus.extraRoot, corpus.tempRoot, corpus.outside, corpus.openworkHome, corpus.skillRoot, '/', '/dev'];
});

afterAll(async () => {
  await fs.rm(temp, { recursive: true, force: true });
});

const segment = fc.constantFrom(
  '', '.', '..', '...', '..test', 'a..b', 'src', 'new.txt', 'New.TXT', '~', 'C:\\x', 'x y',
  '.git', 'hooks', 'config', 'objects', '.openwork', 'spill', '.ssh', '.aws', '.netrc', '.bashrc', '.config', 'fish', 'gh',
  '.vscode', '.idea', '.envrc', 'ws', 'ws2', 'ws_backup', 'home', 'skills', 'my-skill', 'outside', 'tmp', 'tmp-alias',
  'link-out', 'link-in', 'chain-1', 'link-ssh', 'link-hooks', 'link-skill', 'link-openwork-home', 'dangling', 'null', 'zero',
);

/** A path near the fixture: a base plus 0–6 segments, absolute or relative. */
const rawPath = fc.tuple(fc.nat(), fc.array(segment, { maxLength: 6 }), fc.boolean()).map(([base, segments, absolute]) => ({
  base: bases[base % bases.length] as string,
  text: absolute ? `/${segments.join('/')}` : segments.join('/'),
}));

const modeArbitrary = fc.constantFrom<SandboxMode>('read-only', 'workspace-write', 'full-access');

const grantArbitrary = fc
  .tuple(rawPath, fc.constantFrom<'read' | 'write'>('read', 'write'), fc.constantFrom<'exact' | 'subtree'>('exact', 'subtree'))
  .map(([raw, access, scope]): PathGrant => ({ path: normalizePathText(raw.text, raw.base), access, scope }));

const policies = new Map<string, SandboxPolicy>();
function basePolicy(mode: SandboxMode): SandboxPolicy {
  let policy = policies.get(mode);
  if (policy === undefined) {
    policy = corpus.policyFor(mode);
    policies.set(mode, policy);
  }
  return policy;
}

describe('policy properties (fast-check)', () => {
  it('canonicalisation is idempotent (textual and on the real fixture tree)', () => {
    fc.assert(
      fc.property(rawPath, ({ base, text }) => {
        const once = normalizePathText(text, base);
        expect(normalizePathText(once, '/elsewhere')).toBe(once);
        const resolved = canonicalizePathSync(text, { cwd: base, intent: 'may-create' });
        if (resolved.ok) {
          expect(canonicalizePathSync(resolved.path, { cwd: '/', intent: 'may-create' })).toEqual(resolved);
        } else {
          expect(['dangling-symlink', 'not-a-directory', 'empty']).toContain(resolved.problem);
        }
      }),
      { seed, numRuns },
    );
  });

  it('a grant never unlocks hard-protected paths', () => {
    const protectedPath = fc
      .tuple(fc.constantFrom(0, 1, 2), fc.array(segment, { maxLength: 4 }))
      .map(([which, segments]) => normalizePathText(segments.join('/'), [corpus.openworkHome, corpus.skillRoot, `${corpus.workspace}/.openwork`][which] as string))
      .filter((candidate) => [corpus.openworkHome, corpus.skillRoot, `${corpus.workspace}/.openwork`].some((base) => candidate === base || candidate.startsWith(`${base}/`)));
    fc.assert(
      fc.property(modeArbitrary, fc.array(grantArbitrary, { minLength: 1, maxLength: 4 }), protectedPath, fc.constantFrom('file-tool' as const, 'process' as const), (mode, grants, target, actor) => {
        const granted = withGrants(basePolicy(mode), [...grants, { path: target, access: 'write', scope: 'subtree' }]);
        const decision = checkAccess(granted, target, 'write', actor);
        expect(decision).toMatchObject({ allowed: false, tier: 'hard-protected', sandboxDenied: false });
      }),
      { seed, numRuns },
    );
  });

  it('adding a grant never denies something that was allowed', () => {
    fc.assert(
      fc.property(modeArbitrary, fc.array(grantArbitrary, { maxLength: 3 }), grantArbitrary, rawPath, fc.constantFrom('read' as const, 'write' as const), fc.constantFrom('file-tool' as const, 'process' as const), (mode, grants, extra, raw, access, actor) => {
        const target = normalizePathText(raw.text, raw.base);
        const before = withGrants(basePolicy(mode), grants);
        const after = withGrants(before, [extra]);
        if (checkAccess(before, target, access, actor).allowed) {
          expect(checkAccess(after, target, access, actor).allowed).toBe(true);
        }
      }),
      { seed, numRuns },
    );
  });

  it('fence and SBPL evaluator agree', () => {
    const evaluators = new Map<SandboxPolicy, SeatbeltEvaluator>();
    const evaluatorFor = (policy: SandboxPolicy): SeatbeltEvaluator => {
      let evaluator = evaluators.get(policy);
      if (evaluator === undefined) {
        const profile = renderSeatbeltProfile(deriveSandboxLayout(policy));
        evaluator = SeatbeltEvaluator.compile(profile.profile, profile.parameters);
        evaluators.set(policy, evaluator);
      }
      return evaluator;
    };
    // A small pool of granted policies keeps the profile compilation out of the hot loop.
    const pool = fc.sample(fc.tuple(modeArbitrary, fc.array(grantArbitrary, { maxLength: 4 })), { seed, numRuns: 40 }).map(([mode, grants]) => withGrants(basePolicy(mode), grants));
    fc.assert(
      fc.property(fc.nat({ max: pool.length - 1 }), rawPath, (index, raw) => {
        const policy = pool[index] as SandboxPolicy;
        const target = normalizePathText(raw.text, raw.base);
        const evaluator = evaluatorFor(policy);
        expect(checkAccess(policy, target, 'read', 'process').allowed).toBe(evaluator.decide('file-read*', target) === 'allow');
        expect(checkAccess(policy, target, 'write', 'process').allowed).toBe(seatbeltAllowsWrite(evaluator, target));
      }),
      { seed, numRuns },
    );
  });
});
