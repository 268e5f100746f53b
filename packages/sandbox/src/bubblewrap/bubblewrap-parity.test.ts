import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BubblewrapBackend, canonicalizePathSync, checkAccess } from '../index.js';
import { buildParityCorpus, type ParityCorpus, type ParityGrantSet } from '../testing.js';
import type { SandboxMode, SandboxPolicy } from '../index.js';
import { prepareRenameSources, probeCommand, runProbe } from './test-support/parity-probe.js';
import type { ProbeAnswer, ProbeOperation, ProbeStep } from './test-support/parity-probe.js';
import { makeTempDirectory, requireBubblewrap } from './test-support/run-wrapped.js';

/** A probe step plus what the fence is asked about it. */
interface PlannedStep extends ProbeStep {
  readonly input: string;
  /** Canonical path(s) `checkAccess` answers for; all must allow. */
  readonly checks: ReadonlyArray<{ readonly path: string; readonly access: 'read' | 'write' }>;
}

interface Disagreement {
  readonly mode: SandboxMode;
  readonly grantSet: string;
  readonly operation: ProbeOperation;
  /** Input relative to the corpus root (system paths stay absolute). */
  readonly input: string;
  readonly fence: boolean;
  readonly kernel: boolean;
  readonly probe: string;
}

/**
 * Cases where bubblewrap cannot give the fence's answer, each with its reason (also in README
 * "Linux (bubblewrap)" › known limits). Listed by name so that nothing is excluded silently, and
 * each must still occur — a stale entry fails the test too.
 */
const knownLimits: ReadonlyArray<{ readonly name: string; readonly reason: string; readonly matches: (case_: Disagreement) => boolean }> = [
  {
    name: 'an exactly granted file is a mount point',
    reason:
      'an exact write grant on a file inside a read-only area is a bind mount of that one file: it can be rewritten ' +
      'in place, but unlinking or renaming over it needs a writable directory (EROFS) or hits the mount point (EBUSY)',
    matches: (case_) =>
      case_.grantSet === 'sensitive and credential grants' &&
      (case_.operation === 'delete' || case_.operation === 'rename-over') &&
      (case_.input === 'home/.bashrc' || case_.input === 'ws/.git/hooks/pre-commit') &&
      case_.fence &&
      !case_.kernel,
  },
];

const backend = new BubblewrapBackend();
let scratch: string;

beforeAll(async () => {
  await requireBubblewrap();
  scratch = await makeTempDirectory('ow-bwrap-parity-');
});

afterAll(async () => {
  if (scratch !== undefined) await fsp.rm(scratch, { recursive: true, force: true });
});

function isInside(candidate: string, root: string): boolean {
  return candidate === root || candidate.startsWith(`${root}/`);
}

/** Where an entry-level operation (rename over, delete) acts: the node itself, not what a link points to. */
function nodePath(input: string): string | undefined {
  const parent = canonicalizePathSync(path.dirname(input), { cwd: '/', intent: 'must-exist' });
  return parent.ok ? path.join(parent.path, path.basename(input)) : undefined;
}

/**
 * Every corpus path × operation, in four phases (read/list, create/append, rename over, delete)
 * so that destructive steps run after every path has been read. Writes only inside the fixture
 * root (full-access writes are real); devices are written, system paths only read.
 */
function plan(corpus: ParityCorpus): PlannedStep[] {
  const extra = [
    // A temp root without .git: what `git init` would create, protected although missing (architecture §3.2).
    path.join(corpus.tempRoot, '.git/hooks/new.txt'),
    path.join(corpus.tempRoot, '.git/config'),
  ].map((input) => ({ input, canonical: input, exists: false, device: false }));
  const entries = [...corpus.entries, ...extra];
  const reads: PlannedStep[] = [];
  const writes: PlannedStep[] = [];
  const renames: PlannedStep[] = [];
  const deletes: PlannedStep[] = [];
  const nodesSeen = new Set<string>();
  let counter = 0;
  const missingInputs = entries.filter((entry) => !entry.device && !fs.existsSync(entry.input)).map((entry) => entry.input);
  // A missing name with other missing names below it (`ws/~` and `ws/~/notes.txt`) is created as
  // a directory, checked through a file inside it; as a file it would block its children.
  const isParentOfAnother = (input: string): boolean => missingInputs.some((other) => other.startsWith(`${input}/`));
  for (const entry of entries) {
    const { input, canonical } = entry;
    if (entry.device) {
      // /dev/tty: open fails with ENXIO in a new session without a controlling terminal — not a policy answer.
      if (input === '/dev/tty') continue;
      reads.push({ operation: 'read', path: input, input, device: true, checks: [{ path: canonical, access: 'read' }] });
      writes.push({ operation: 'append', path: input, input, device: true, marker: 'x', checks: [{ path: canonical, access: 'write' }] });
      continue;
    }
    const insideFixture = isInside(canonical, corpus.root);
    let stats: fs.Stats | undefined;
    try {
      stats = fs.statSync(input);
    } catch {
      stats = undefined;
    }
    if (stats === undefined) {
      if (insideFixture) {
        const marker = `created ${(counter += 1)}\n`;
        const [target, checked] = isParentOfAnother(input)
          ? [`${input}/.parity-created`, `${canonical}/.parity-created`]
          : [input, canonical];
        writes.push({ operation: 'create', path: target, input, marker, checks: [{ path: checked, access: 'write' }] });
      }
      continue;
    }
    if (stats.isDirectory()) {
      reads.push({ operation: 'list', path: input, input, checks: [{ path: canonical, access: 'read' }] });
      continue;
    }
    reads.push({ operation: 'read', path: input, input, checks: [{ path: canonical, access: 'read' }] });
    if (!insideFixture) continue;
    writes.push({ operation: 'append', path: input, input, marker: `appended ${(counter += 1)}\n`, checks: [{ path: canonical, access: 'write' }] });
    const node = nodePath(input);
    if (node === undefined || !isInside(node, corpus.root) || nodesSeen.has(node)) continue;
    nodesSeen.add(node);
    const source = `${node}.parity-source`;
    renames.push({
      operation: 'rename-over',
      path: node,
      input,
      source,
      checks: [
        { path: node, access: 'write' },
        { path: source, access: 'write' },
      ],
    });
    deletes.push({ operation: 'delete', path: node, input, checks: [{ path: node, access: 'write' }] });
  }
  return [...reads, ...writes, ...renames, ...deletes];
}

/** One sandbox over a fresh fixture: `grantSetName` picks that fixture's own grants (their paths are in it). */
async function probeOnce(mode: SandboxMode, grantSetName: string, runIndex: number): Promise<{ disagreements: Disagreement[]; compared: number }> {
  const fixture = path.join(scratch, `run-${runIndex}`);
  await fsp.mkdir(fixture);
  const corpus = await buildParityCorpus(fixture);
  const grantSet = corpus.grantSets.find((candidate) => candidate.name === grantSetName) as ParityGrantSet;
  const policy: SandboxPolicy = corpus.policyFor(mode, grantSet.grants);
  const steps = plan(corpus);
  prepareRenameSources(steps);
  const planFile = path.join(scratch, `plan-${runIndex}.json`);
  await fsp.writeFile(planFile, JSON.stringify(steps));
  const wrapped = backend.wrap({ argv: probeCommand(planFile), cwd: corpus.workspace }, policy);
  const answers: ProbeAnswer[] = await runProbe(wrapped, corpus.workspace, steps);
  const disagreements: Disagreement[] = [];
  for (const answer of answers) {
    const step = answer.step as PlannedStep;
    const fence = step.checks.every((check) => checkAccess(policy, check.path, check.access, 'process').allowed);
    // A write the kernel let through but that never reached the host (a plain tmpfs, peers.md) is
    // a disagreement too: the command believes it wrote.
    const vanished = !fence && !answer.kernelAllowed && answer.probeOk && step.operation !== 'read' && step.operation !== 'list';
    if (fence === answer.kernelAllowed && !vanished) continue;
    disagreements.push({
      mode,
      grantSet: grantSet.name,
      operation: step.operation,
      input: isInside(step.input, corpus.root) ? path.relative(corpus.root, step.input) : step.input,
      fence,
      kernel: answer.kernelAllowed,
      probe: answer.probeOk ? (vanished ? 'ok but vanished' : 'ok') : String(answer.probeCode),
    });
  }
  await fsp.rm(fixture, { recursive: true, force: true });
  return { disagreements, compared: answers.length };
}

describe('bubblewrap parity with the fence', () => {
  it('acc_10a bubblewrap enforces the same answers as the fence on every path', async () => {
    const unexplained: Disagreement[] = [];
    const used = new Set<string>();
    let compared = 0;
    let runIndex = 0;
    const probeCorpus = await buildParityCorpus(await makeTempDirectory('ow-bwrap-parity-shape-'));
    try {
      for (const mode of probeCorpus.modes) {
        for (const grantSet of probeCorpus.grantSets) {
          const result = await probeOnce(mode, grantSet.name, (runIndex += 1));
          compared += result.compared;
          for (const disagreement of result.disagreements) {
            const limit = knownLimits.find((candidate) => candidate.matches(disagreement));
            if (limit === undefined) unexplained.push(disagreement);
            else used.add(limit.name);
          }
        }
      }
    } finally {
      await fsp.rm(probeCorpus.root, { recursive: true, force: true });
    }
    expect(unexplained).toEqual([]);
    expect([...used].sort()).toEqual(knownLimits.map((limit) => limit.name).sort());
    expect(compared).toBeGreaterThan(1000);
  });
});
