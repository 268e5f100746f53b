import type { SandboxCommand, SandboxReleaseReport, WrappedCommand } from '../backend/sandbox-backend.js';
import { listeningUnixSockets } from '../bubblewrap/listening-unix-sockets.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import * as fs from 'node:fs';
import { applyStagedWritesInSlices, defaultConflictFolder } from './apply-staged-writes.js';
import { copyRegularFile } from './copy-regular-file.js';
import { toNodePath } from '../policy/path-bytes.js';
import { installStageMountHelper } from './install-stage-mount-helper.js';
import { readOverlayOpaque } from './read-overlay-opaque.js';
import { overlayTargets, realStagedHost, renderStagedBubblewrap } from './render-staged-bubblewrap.js';
import type { StagedHost } from './render-staged-bubblewrap.js';
import { stagedCommand } from './staged-command.js';
import type { StagedApplyReport, StagedBase, StagedRoot } from './staged-writes.js';
import { createStagingArea } from './staging-area.js';
import { findStagedProcess, reflectHostWrites } from './reflect-host-writes.js';

const emptyReport: StagedApplyReport = { changes: [], refused: [], skipped: [], counts: { created: 0, modified: 0, deleted: 0 }, complete: true };

/** How many refused changes the model is told of one by one; the rest are counted. */
const listedRefusals = 20;

/**
 * The base of a call (architecture §3.11): a change time taken on the staging folder just before
 * the command starts, returned once the file systems' clock has moved past it — so every host
 * change the command cannot have seen has a later change time, and one with this time or earlier
 * happened before the command began. Costs one tick of the kernel's coarse clock at most (a few
 * microseconds where the kernel hands out fine-grained change times).
 */
export function takeStagedBase(folder: string): StagedBase {
  const marker = `${folder}/base`;
  const fd = fs.openSync(marker, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC, 0o600);
  try {
    fs.writeSync(fd, 'base');
    const stampNs = fs.fstatSync(fd, { bigint: true }).ctimeNs;
    const deadline = Date.now() + 1000;
    for (;;) {
      const now = new Date();
      fs.futimesSync(fd, now, now);
      if (fs.fstatSync(fd, { bigint: true }).ctimeNs > stampNs || Date.now() > deadline) break;
    }
    return { stampNs, seen: new Map() };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Moves each root's upper layer into the call's conflict folder (`unapplied/<host path>`): a rename,
 * so it needs no space on a full disk; a layer on another file system than that folder stays where it
 * is (and goes with the staging folder). The places it was kept.
 */
function keepUnapplied(roots: readonly StagedRoot[], conflictFolder: string): string[] {
  const kept: string[] = [];
  for (const root of roots) {
    const place = `${conflictFolder}/unapplied${root.target === '/' ? '/root' : root.target}`;
    try {
      if (fs.readdirSync(root.upper).length === 0) continue;
      fs.mkdirSync(place.slice(0, place.lastIndexOf('/')), { recursive: true, mode: 0o700 });
      try {
        fs.renameSync(root.upper, place);
        fs.mkdirSync(root.upper); // the staging folder's removal expects it
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        copyLayer(toNodePath(root.upper), toNodePath(place));
      }
      kept.push(place);
    } catch {
      // the folder cannot be written: the layer goes with the staging folder
    }
  }
  return kept;
}

/** Copies an upper layer (its folders, files and links; a removal — a character device — is left out) to `target`, made anew. */
function copyLayer(source: Buffer | string, target: Buffer | string): void {
  fs.mkdirSync(target, { mode: 0o700 });
  for (const name of fs.readdirSync(source, { encoding: 'buffer' })) {
    const from = Buffer.concat([Buffer.from(source), Buffer.from('/'), name]);
    const to = Buffer.concat([Buffer.from(target), Buffer.from('/'), name]);
    const stats = fs.lstatSync(from);
    if (stats.isDirectory()) copyLayer(from, to);
    else if (stats.isFile()) copyRegularFile(from, to, stats.mode & 0o777);
    else if (stats.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from, { encoding: 'buffer' }), to);
  }
}

/** The text the model gets about what the rules kept from the host (architecture §3.5, §3.10) and what the host changed meanwhile (§3.11). */
export function formatStagedRefusals(report: StagedApplyReport): string[] {
  const conflicts = report.conflicts ?? [];
  if (report.refused.length === 0 && report.skipped.length === 0 && conflicts.length === 0 && report.failed === undefined) return [];
  const lines: string[] = [];
  if (report.failed !== undefined) {
    lines.push(`[not applied: nothing this command wrote reached the host — applying it failed before anything was put in place (${report.failed}); the host is as it was]`);
  }
  if (conflicts.length > 0) {
    lines.push(
      `[conflict: ${conflicts.length} entr${conflicts.length === 1 ? 'y' : 'ies'} changed on the host while the command ran — the host keeps its version, the command's is kept aside where it had one]`,
    );
    for (const conflict of conflicts.slice(0, listedRefusals)) {
      lines.push(`- ${conflict.operation} ${conflict.path}: ${conflict.reason}${conflict.keptAt === undefined ? '' : `; the command's version is at ${conflict.keptAt}`}`);
    }
    if (conflicts.length > listedRefusals) lines.push(`- … and ${conflicts.length - listedRefusals} more`);
  }
  if (report.refused.length > 0) {
    lines.push(
      `[not applied: ${report.refused.length} change${report.refused.length === 1 ? '' : 's'} the sandbox rules refused — the command saw ${report.refused.length === 1 ? 'it' : 'them'} while it ran, the host keeps what it had]`,
    );
    for (const refusal of report.refused.slice(0, listedRefusals)) {
      const below = refusal.entriesBelow === undefined ? '' : ` (with the ${refusal.entriesBelow} entries below it)`;
      lines.push(`- ${refusal.operation} ${refusal.path}${below}: ${refusal.message}`);
    }
    if (report.refused.length > listedRefusals) lines.push(`- … and ${report.refused.length - listedRefusals} more`);
  }
  for (const skip of report.skipped.slice(0, listedRefusals)) lines.push(`[not applied: ${skip.path}: ${skip.reason}]`);
  return [lines.join('\n')];
}

/** A staged call: `release()` and `sync()` always report what they applied and refused. */
export interface StagedWrappedCommand extends Omit<WrappedCommand, 'release' | 'sync' | 'reflect'> {
  release(): Promise<StagedReleaseReport>;
  sync(): Promise<StagedReleaseReport>;
  reflect(paths: readonly string[]): Promise<void>;
}

/** What a staged call's `release()` reports: the notices for the model and what was applied. */
export interface StagedReleaseReport extends SandboxReleaseReport {
  readonly staged: StagedApplyReport;
}

/**
 * Wraps `command` for a staged call (architecture §3.10): renders bwrap with every writable folder
 * an overlay on this call's staging folder, the stage helper mounting it and dropping every
 * capability, then the command in its working folder entered anew (so that it is the overlay's).
 * `release()` applies what the rules allow, reports the rest and removes the staging folder.
 */
export function wrapStaged(
  bwrapPath: string,
  command: SandboxCommand,
  policy: SandboxPolicy,
  layout: SandboxLayout,
  host: StagedHost = realStagedHost(listeningUnixSockets),
): StagedWrappedCommand {
  const helper = installStageMountHelper(policy.openworkHome);
  const overlays = overlayTargets(layout, host, host.mounts());
  const targets = overlays.map((overlay) => overlay.target);
  const area = createStagingArea(policy.openworkHome, targets, helper);
  let argv: string[];
  try {
    const rendering = renderStagedBubblewrap(layout, command, area, host, new Set(overlays.filter((overlay) => overlay.mounted).map((overlay) => overlay.target)));
    // The working folder was entered before the overlays covered it: the helper enters it again by its name.
    const mounts = [...rendering.mounts, { kind: 'chdir' as const, target: command.cwd }];
    argv = [bwrapPath, ...rendering.bubblewrapArguments, '--', ...stagedCommand(helper, mounts, { argv: rendering.command, cwd: command.cwd }).argv];
  } catch (error) {
    area.remove();
    throw error;
  }
  let released: Promise<StagedReleaseReport> | undefined;
  const judged = new Map<string, string>();
  // What the command saw, and where its versions of conflicting entries go (one folder per call).
  let base: StagedBase;
  try {
    base = takeStagedBase(area.folder);
  } catch (error) {
    area.remove();
    throw error;
  }
  const conflictFolder = defaultConflictFolder(policy);
  // Passes run in slices (the event loop stays free) and one at a time: a release waits for a sync.
  let passes: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(pass: () => Promise<T>): Promise<T> => {
    const next = passes.then(pass, pass);
    passes = next.catch(() => undefined);
    return next;
  };
  let stagedProcess: number | undefined;
  return {
    argv,
    async sync(): Promise<StagedReleaseReport> {
      if (released !== undefined) return { notices: [], staged: emptyReport };
      const staged = await oneAtATime(async () =>
        released !== undefined ? emptyReport : applyStagedWritesInSlices(policy, area.roots, { mode: 'copy', judged, base, conflictFolder, opaqueFolders: (folders) => readOverlayOpaque(helper, folders) }),
      );
      const told = (staged.conflicts?.length ?? 0) > 0 || staged.failed !== undefined;
      return { notices: told ? formatStagedRefusals({ ...staged, refused: [], skipped: [] }) : [], staged };
    },
    async reflect(paths: readonly string[]): Promise<void> {
      if (released !== undefined || paths.length === 0) return;
      stagedProcess = findStagedProcess(`upperdir=${area.mountPoint}/`, stagedProcess);
      if (stagedProcess !== undefined) {
        // What is shown to the command is what it has seen: the apply compares with it from now on.
        for (const [path, identity] of reflectHostWrites(stagedProcess, targets, paths)) base.seen.set(path, identity);
      }
    },
    release(): Promise<StagedReleaseReport> {
      released ??= oneAtATime(async () => {
        try {
          const report = await applyStagedWritesInSlices(policy, area.roots, { base, conflictFolder, opaqueFolders: (folders) => readOverlayOpaque(helper, folders) });
          if (report.failed === undefined) return { notices: formatStagedRefusals(report), staged: report };
          // Nothing reached the host: what the command wrote is kept aside rather than removed with the staging folder.
          const kept = keepUnapplied(area.roots, conflictFolder);
          const notices = formatStagedRefusals(report);
          if (kept.length > 0) notices.push(`[what the command wrote is kept (its new and changed files, folders and links; not its removals) at ${kept.join(', ')}]`);
          return { notices, staged: report };
        } catch (error) {
          // Never silently: the model is told its writes may not all be on the host.
          const reason = error instanceof Error ? error.message : String(error);
          return { notices: [`[not applied: the sandbox could not apply what the command wrote (${reason}); some of its changes may be missing on the host]`], staged: emptyReport };
        } finally {
          area.remove();
        }
      });
      return released;
    },
  };
}
