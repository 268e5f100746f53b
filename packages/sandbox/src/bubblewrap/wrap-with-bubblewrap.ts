import * as fs from 'node:fs';
import type { SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import { SandboxConfigurationError } from '../policy/sandbox-error.js';
import type { SandboxLayout, ScopedPath } from '../policy/sandbox-layout.js';
import { findGrantsWithoutMounts } from './find-grants-without-mounts.js';
import { inspectHostPath } from './host-path-state.js';
import type { InspectHostPath } from './host-path-state.js';
import type { MountPointLedger } from './mount-point-ledger.js';
import { renderBubblewrapArguments } from './render-bubblewrap-arguments.js';

/**
 * A write grant may name a path that does not exist yet ("create /opt/tool/config.toml"). A bind
 * needs an existing source, so the node is created here — `exact` as an empty file, `subtree` as
 * an empty directory — and removed by `release()` if the command left it empty.
 */
function createWritablePlaceholders(layout: SandboxLayout, inspect: InspectHostPath): string[] {
  const created: string[] = [];
  // A grant that mounts nothing needs no placeholder (and must not get one: see that function).
  const withoutMounts = findGrantsWithoutMounts(layout, inspect);
  const candidates: ScopedPath[] = [
    ...layout.writable.filter(
      (entry) => !isInsideAnyScopedPath(entry.path, layout.readOnly) && !isInsideAnyScopedPath(entry.path, layout.unreadable),
    ),
    ...layout.writableGrants.filter(
      (entry) => !isInsideAnyScopedPath(entry.path, layout.hardProtected) && !withoutMounts.includes(entry),
    ),
  ];
  for (const entry of candidates) {
    const state = inspect(entry.path);
    if (state.kind !== 'missing') continue;
    createChain(state.missingChain, entry.scope === 'exact' ? state.path : undefined);
    created.push(...state.missingChain);
  }
  return created;
}

/**
 * Create `chain` (missing components, shallowest first) as directories, except `file`, an empty
 * file. Another call's bwrap may create the same mount points right now: EEXIST is fine, the
 * ledger counts both claims.
 */
function createChain(chain: readonly string[], file: string | undefined): void {
  for (const component of chain) {
    try {
      if (component !== file) fs.mkdirSync(component);
      else fs.writeFileSync(component, '', { flag: 'wx', mode: 0o644 });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * The whole of `BubblewrapBackend.wrap` for an already derived layout: placeholders, arguments,
 * and the ledger claim that `release()` gives back. Never spawns (spec §4).
 */
export function wrapWithBubblewrap(
  bwrapPath: string,
  command: SandboxCommand,
  layout: SandboxLayout,
  ledger: MountPointLedger,
  inspect: InspectHostPath = inspectHostPath,
): WrappedCommand {
  if (!command.cwd.startsWith('/') || command.cwd.includes('\0')) {
    throw new SandboxConfigurationError(`the working directory must be an absolute path, got ${JSON.stringify(command.cwd)}`);
  }
  if (command.argv.length === 0) throw new SandboxConfigurationError('the command argv is empty');
  const placeholders = createWritablePlaceholders(layout, inspect);
  let rendering;
  try {
    rendering = renderBubblewrapArguments(layout, command, inspect);
    // Pinned ancestors that do not exist yet (`.git` for `.git/hooks`): a bind needs its source.
    createChain(rendering.directoryMountPoints, undefined);
    // File mount points (a missing `.git/config`) and their missing parents, before bwrap binds them.
    for (const file of rendering.fileMountPoints) {
      const chain = rendering.createdMountPoints.filter((created) => created === file || file.startsWith(`${created}/`));
      createChain(chain, file);
    }
  } catch (error) {
    void ledger.claim([...placeholders, ...(rendering?.createdMountPoints ?? [])], []).release();
    throw error;
  }
  const claim = ledger.claim([...placeholders, ...rendering.createdMountPoints], rendering.mountDestinations);
  return {
    argv: [bwrapPath, ...rendering.arguments],
    release: () => claim.release(),
  };
}
