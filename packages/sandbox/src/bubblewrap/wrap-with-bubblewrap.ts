import * as fs from 'node:fs';
import type { SandboxCommand, WrappedCommand } from '../backend/sandbox-backend.js';
import { SandboxConfigurationError, SandboxError } from '../policy/sandbox-error.js';
import type { SandboxLayout } from '../policy/sandbox-layout.js';
import { realBubblewrapHost, snapshotBubblewrapHost } from './bubblewrap-host.js';
import type { BubblewrapHost } from './bubblewrap-host.js';
import type { MountPointLedger } from './mount-point-ledger.js';
import { sandboxOwnerArguments } from './mount-point-registry.js';
import { renderBubblewrapArguments } from './render-bubblewrap-arguments.js';

/**
 * Create `chain` (missing components, shallowest first) as folders, except `file`, a file with
 * `content`. Another call's bwrap may create the same mount points right now: EEXIST is fine, the
 * ledger counts both claims.
 */
function createChain(chain: readonly string[], file: string | undefined, content = ''): void {
  for (const component of chain) {
    try {
      if (component !== file) fs.mkdirSync(component);
      else fs.writeFileSync(component, content, { flag: 'wx', mode: 0o644 });
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
  }
}

/** Renderings thrown away because another process removed mount points meanwhile, before we give up. */
const maximumRenderings = 50;

/**
 * The whole of `BubblewrapBackend.wrap` for an already derived layout: the arguments, the host
 * nodes bwrap needs before it starts (write-grant placeholders, pinned folders, file mount
 * points), and the ledger claim that `release()` gives back. The claim is registered machine-wide
 * before anything is created (§3.7: a crash right after leaves nothing unrecorded); when another
 * process removed mount points since the host was read, the call is rendered again. Never spawns
 * (spec §4).
 */
export function wrapWithBubblewrap(
  bwrapPath: string,
  command: SandboxCommand,
  layout: SandboxLayout,
  ledger: MountPointLedger,
  host: BubblewrapHost = realBubblewrapHost,
): WrappedCommand {
  if (!command.cwd.startsWith('/') || command.cwd.includes('\0')) {
    throw new SandboxConfigurationError(`the working directory must be an absolute path, got ${JSON.stringify(command.cwd)}`);
  }
  if (command.argv.length === 0) throw new SandboxConfigurationError('the command argv is empty');
  for (let rendering = 0; rendering < maximumRenderings; rendering += 1) {
    const generation = ledger.generation();
    const wrapped = renderAndClaim(bwrapPath, command, layout, ledger, host, generation);
    if (wrapped !== undefined) return wrapped;
  }
  throw new SandboxError(`could not prepare the sandbox: other OpenWork processes kept removing mount points during ${maximumRenderings} attempts; try again`);
}

function renderAndClaim(
  bwrapPath: string,
  command: SandboxCommand,
  layout: SandboxLayout,
  ledger: MountPointLedger,
  host: BubblewrapHost,
  generation: string,
): WrappedCommand | undefined {
  // One snapshot of the real host per rendering (a render again reads the host afresh).
  const rendering = renderBubblewrapArguments(layout, command, host === realBubblewrapHost ? snapshotBubblewrapHost() : host);
  const placeholders = rendering.writablePlaceholders.flatMap((placeholder) => placeholder.chain);
  const planted = new Map(rendering.fileMountPoints.map((file) => [file.path, file.content]));
  const created = [...placeholders, ...rendering.createdMountPoints];
  const claim = ledger.claim(created, rendering.mountDestinations, planted, generation);
  if (claim === undefined) return undefined;
  try {
    for (const placeholder of rendering.writablePlaceholders) createChain(placeholder.chain, placeholder.file);
    // Pinned ancestors that do not exist yet (`.git` for `.git/hooks`): a bind needs its source.
    createChain(rendering.directoryMountPoints, undefined);
    // File mount points (a missing `.git/config`) and their missing parents, before bwrap binds them.
    for (const file of rendering.fileMountPoints) {
      const chain = rendering.createdMountPoints.filter((node) => node === file.path || file.path.startsWith(`${node}/`));
      createChain(chain, file.path, file.content);
    }
  } catch (error) {
    void claim.release().catch(() => undefined);
    throw error;
  }
  return {
    argv: [bwrapPath, ...sandboxOwnerArguments(ledger.registry.owner), ...rendering.arguments],
    release: () => claim.release(),
  };
}
