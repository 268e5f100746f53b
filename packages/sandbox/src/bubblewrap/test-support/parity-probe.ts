import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import type { Writable } from 'node:stream';
import type { WrappedCommand } from '../../backend/sandbox-backend.js';
import type { StagedApplyReport } from '../../staging/staged-writes.js';
import { releaseReport, spawnSandboxed } from './run-wrapped.js';

/**
 * What the probe does to one path. `source` is the file renamed over `path`; `write-through`
 * writes through a dangling symbolic link, which creates `target` if the kernel lets it.
 */
export type ProbeOperation = 'read' | 'list' | 'append' | 'create' | 'write-through' | 'rename-over' | 'delete';

export interface ProbeStep {
  readonly operation: ProbeOperation;
  /** The path as a process names it (may go through symbolic links). */
  readonly path: string;
  readonly marker?: string;
  readonly source?: string;
  /** `write-through`: where the content lands on the host (the end of the link chain). */
  readonly target?: string;
  /** Devices: no host content to compare, only whether the kernel let the operation through. */
  readonly device?: boolean;
}

export interface ProbeAnswer {
  readonly step: ProbeStep;
  /** What the probe itself saw: success, or the errno code. */
  readonly probeOk: boolean;
  readonly probeCode: string | undefined;
  /**
   * Whether the operation really happened, judged from the host file system: right after it, or
   * (`judgeAt: 'release'`, staged writes) after `release()` applied what the rules allow.
   */
  readonly kernelAllowed: boolean;
  /**
   * `judgeAt: 'release'` only: whether `release()` reported a refused change at a path the step
   * wrote (or a folder above it), so that the model is told what did not reach the host.
   */
  readonly reported?: boolean;
}

/**
 * When the host judges a step. `each-step`: right after it, while the probe waits (the kernel
 * enforces the policy while the command runs). `release`: reads, listings and devices right
 * after them, writes after `release()` — with staged writes (architecture §3.10) a write succeeds
 * inside the sandbox and reaches the host only if the rules allow it, so the answer is the host's
 * outcome. Steps of one `release` run must then act on distinct host entries (see `hostEntries`).
 */
export type ProbeJudgement = 'each-step' | 'release';

/** Whether the host keeps a step's answer until `release()` under `judgeAt: 'release'`. */
function judgedAtRelease(step: ProbeStep): boolean {
  return step.device !== true && step.operation !== 'read' && step.operation !== 'list';
}

/** Where the kernel puts `file` on the host: its deepest existing folder resolved, the rest appended. */
function realNode(file: string): string {
  let folder = path.dirname(file);
  const rest = [path.basename(file)];
  for (;;) {
    try {
      return path.join(fs.realpathSync(folder), ...rest);
    } catch {
      if (path.dirname(folder) === folder) return file;
      rest.unshift(path.basename(folder));
      folder = path.dirname(folder);
    }
  }
}

/**
 * The host entries a write step creates, changes or removes (an appended file through its links,
 * the entry a rename replaces and its source). Two steps of one `release` run must not share one:
 * the host sees only their combined outcome.
 */
export function hostEntries(step: ProbeStep): string[] {
  switch (step.operation) {
    case 'read':
    case 'list':
      return [];
    case 'append':
      try {
        return [fs.realpathSync(step.path)];
      } catch {
        return [step.path];
      }
    case 'create':
      return [realNode(step.path)];
    case 'write-through':
      return [step.target as string];
    case 'rename-over':
      return [realNode(step.path), realNode(step.source as string)];
    case 'delete':
      return [realNode(step.path)];
  }
}

function isAtOrAbove(folder: string, file: string): boolean {
  return file === folder || file.startsWith(`${folder}/`);
}

/** Whether `report` lists a refused change at one of the step's host entries or a folder above it. */
function isReported(step: ProbeStep, report: StagedApplyReport): boolean {
  const entries = step.operation === 'write-through' ? [step.target as string] : [...hostEntries(step), step.path, ...(step.source === undefined ? [] : [step.source])];
  return report.refused.some((refusal) => entries.some((entry) => isAtOrAbove(refusal.path, entry)));
}

/**
 * The probe, run by node inside the sandbox: one operation per step, one JSON line per result,
 * then it blocks until the host has inspected the file system and answers with a newline. So the
 * host sees the effect of every single operation, even when a later step deletes the file.
 */
const probeSource = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const steps = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const one = Buffer.alloc(1);
const pause = new Int32Array(new SharedArrayBuffer(4));
function waitForHost() {
  for (;;) {
    let count;
    try { count = fs.readSync(0, one, 0, 1, null); }
    catch (error) { if (error.code === 'EAGAIN') { Atomics.wait(pause, 0, 0, 2); continue; } throw error; }
    if (count === 0) process.exit(3);
    if (one[0] === 10) return;
  }
}
function digest(file) {
  const fd = fs.openSync(file, 'r');
  try {
    if (!fs.fstatSync(fd).isFile()) { fs.readSync(fd, Buffer.alloc(16), 0, 16, null); return 'device'; }
    return crypto.createHash('sha256').update(fs.readFileSync(fd)).digest('hex');
  } finally { fs.closeSync(fd); }
}
for (const step of steps) {
  const result = {};
  try {
    switch (step.operation) {
      case 'read': result.digest = digest(step.path); break;
      case 'list': result.names = fs.readdirSync(step.path).sort(); break;
      case 'append': fs.appendFileSync(step.path, step.marker); break;
      case 'create': fs.mkdirSync(path.dirname(step.path), { recursive: true }); fs.writeFileSync(step.path, step.marker); break;
      case 'write-through': fs.writeFileSync(step.path, step.marker); break;
      case 'rename-over': fs.renameSync(step.source, step.path); break;
      case 'delete': fs.unlinkSync(step.path); break;
    }
    result.ok = true;
  } catch (error) {
    result.ok = false;
    result.code = error.code;
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  waitForHost();
}
`;

function hostDigest(file: string): string | undefined {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}

function hostContent(file: string): string | undefined {
  try {
    return fs.lstatSync(file).isFile() ? fs.readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

function hostExists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/** Host-side judgement of one step, made while the probe waits (see `probeSource`). */
function judge(step: ProbeStep, result: { ok: boolean; digest?: string; names?: string[] }): boolean {
  if (step.device === true) return result.ok;
  switch (step.operation) {
    case 'read':
      return result.ok && result.digest === hostDigest(step.path);
    case 'list': {
      if (!result.ok) return false;
      const hostNames = fs.readdirSync(step.path).sort();
      return JSON.stringify(hostNames) === JSON.stringify(result.names);
    }
    case 'append': {
      let real: string;
      try {
        real = fs.realpathSync(step.path);
      } catch {
        return false;
      }
      return hostContent(real)?.endsWith(step.marker as string) === true;
    }
    case 'create': {
      // Created through links: look where the kernel would have put it.
      const parent = path.dirname(step.path);
      const real = hostExists(parent) ? path.join(fs.realpathSync(parent), path.basename(step.path)) : step.path;
      return hostContent(real) === step.marker;
    }
    case 'write-through':
      return hostContent(step.target as string) === step.marker;
    case 'rename-over':
      return hostContent(step.path) === `source of ${step.path}\n` && !hostExists(step.source as string);
    case 'delete':
      return !hostExists(step.path);
  }
}

/** Create the files `rename-over` steps move, next to their targets, before the sandbox starts. */
export function prepareRenameSources(steps: readonly ProbeStep[]): void {
  for (const step of steps) {
    if (step.operation === 'rename-over') fs.writeFileSync(step.source as string, `source of ${step.path}\n`);
  }
}

/**
 * Run `steps` in ONE sandbox (the wrapped argv must end with the probe command built by
 * `probeCommand`), judging each on the host (`judgeAt`, default `each-step`). Always releases the
 * wrapped command; with `judgeAt: 'release'` the release must be a staged one (it reports `staged`).
 */
export async function runProbe(
  wrapped: WrappedCommand,
  cwd: string,
  steps: readonly ProbeStep[],
  options: { readonly timeoutMs?: number; readonly judgeAt?: ProbeJudgement } = {},
): Promise<ProbeAnswer[]> {
  const judgeAt = options.judgeAt ?? 'each-step';
  if (judgeAt === 'release') {
    const owners = new Map<string, ProbeStep>();
    for (const step of steps) {
      for (const entry of hostEntries(step)) {
        const other = owners.get(entry);
        if (other !== undefined && other !== step) throw new Error(`two steps of one staged probe run act on ${entry} (${other.operation} and ${step.operation}): run them apart`);
        owners.set(entry, step);
      }
    }
  }
  const answers: ProbeAnswer[] = [];
  /** Steps whose answer waits for release(): what the probe said, by index. */
  const deferred: Array<{ index: number; result: { ok: boolean; code?: string; digest?: string; names?: string[] } }> = [];
  let released = false;
  try {
    const { child, closed } = spawnSandboxed(wrapped.argv, cwd, 'pipe', options.timeoutMs ?? 60_000);
    const stdin = child.stdin as Writable;
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const lines = readline.createInterface({ input: child.stdout });
    for await (const line of lines) {
      const step = steps[answers.length];
      if (step === undefined) throw new Error(`probe printed more lines than steps: ${line}`);
      const result = JSON.parse(line) as { ok: boolean; code?: string; digest?: string; names?: string[] };
      if (judgeAt === 'release' && judgedAtRelease(step)) {
        deferred.push({ index: answers.length, result });
        answers.push({ step, probeOk: result.ok, probeCode: result.code, kernelAllowed: false });
      } else {
        answers.push({ step, probeOk: result.ok, probeCode: result.code, kernelAllowed: judge(step, result) });
      }
      stdin.write('\n');
    }
    const [code] = await closed;
    if (code !== 0 || answers.length !== steps.length) {
      throw new Error(`probe ended with exit ${String(code)} after ${answers.length}/${steps.length} steps: ${stderr}`);
    }
    released = true;
    const report = await releaseReport(wrapped);
    if (judgeAt === 'release') {
      const staged = report.staged;
      if (staged === undefined) throw new Error("judgeAt: 'release' on a command whose release() applied no staged writes (not the staged renderer)");
      for (const { index, result } of deferred) {
        const answer = answers[index] as ProbeAnswer;
        answers[index] = { ...answer, kernelAllowed: judge(answer.step, result), reported: isReported(answer.step, staged) };
      }
    }
    return answers;
  } finally {
    if (!released) await wrapped.release();
  }
}

/** argv of the probe: node from this very installation, reading its steps from `planFile`. */
export function probeCommand(planFile: string): string[] {
  return [process.execPath, '-e', probeSource, planFile];
}
