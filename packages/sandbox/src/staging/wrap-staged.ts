import type { SandboxCommand, SandboxReleaseReport, WrappedCommand } from '../backend/sandbox-backend.js';
import { listeningUnixSockets } from '../bubblewrap/listening-unix-sockets.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import type { SandboxPolicy } from '../policy/sandbox-policy.js';
import { applyStagedWrites } from './apply-staged-writes.js';
import { installStageMountHelper } from './install-stage-mount-helper.js';
import { readOverlayOpaque } from './read-overlay-opaque.js';
import { overlayTargets, realStagedHost, renderStagedBubblewrap } from './render-staged-bubblewrap.js';
import type { StagedHost } from './render-staged-bubblewrap.js';
import { stagedCommand } from './staged-command.js';
import type { StagedApplyReport } from './staged-writes.js';
import { createStagingArea } from './staging-area.js';
import { findStagedProcess, reflectHostWrites } from './reflect-host-writes.js';

const emptyReport: StagedApplyReport = { changes: [], refused: [], skipped: [], counts: { created: 0, modified: 0, deleted: 0 }, complete: true };

/** How many refused changes the model is told of one by one; the rest are counted. */
const listedRefusals = 20;

/** The text the model gets about what the rules kept from the host (architecture §3.5, §3.10). */
export function formatStagedRefusals(report: StagedApplyReport): string[] {
  if (report.refused.length === 0 && report.skipped.length === 0) return [];
  const lines: string[] = [];
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
  let stagedProcess: number | undefined;
  return {
    argv,
    async sync(): Promise<StagedReleaseReport> {
      if (released !== undefined) return { notices: [], staged: emptyReport };
      const staged = applyStagedWrites(policy, area.roots, { mode: 'copy', judged, opaqueFolders: (folders) => readOverlayOpaque(helper, folders) });
      return { notices: [], staged };
    },
    async reflect(paths: readonly string[]): Promise<void> {
      if (released !== undefined || paths.length === 0) return;
      stagedProcess = findStagedProcess(`upperdir=${area.mountPoint}/`, stagedProcess);
      if (stagedProcess !== undefined) reflectHostWrites(stagedProcess, targets, paths);
    },
    release(): Promise<StagedReleaseReport> {
      released ??= (async () => {
        try {
          const report = applyStagedWrites(policy, area.roots, { opaqueFolders: (folders) => readOverlayOpaque(helper, folders) });
          return { notices: formatStagedRefusals(report), staged: report };
        } catch (error) {
          // Never silently: the model is told its writes may not all be on the host.
          const reason = error instanceof Error ? error.message : String(error);
          return { notices: [`[not applied: the sandbox could not apply what the command wrote (${reason}); some of its changes may be missing on the host]`], staged: emptyReport };
        } finally {
          area.remove();
        }
      })();
      return released;
    },
  };
}
