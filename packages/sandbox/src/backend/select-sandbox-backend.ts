import { BubblewrapBackend } from '../bubblewrap/bubblewrap-backend.js';
import type { BubblewrapBackendOptions } from '../bubblewrap/bubblewrap-backend.js';
import { SeatbeltBackend } from '../seatbelt/seatbelt-backend.js';
import type { SandboxBackend } from './sandbox-backend.js';
import { UnavailableSandboxBackend } from './unavailable-sandbox-backend.js';

export interface SelectSandboxBackendOptions {
  /** Default `process.platform`. */
  readonly platform?: NodeJS.Platform;
  /** A backend chosen by the embedder (or a test); returned as is, whatever the platform. */
  readonly override?: SandboxBackend;
  /** Passed to the bubblewrap backend on Linux. */
  readonly bubblewrap?: BubblewrapBackendOptions;
}

/**
 * The kernel sandbox of this platform (architecture §3.4): Seatbelt on macOS, bubblewrap on Linux,
 * and elsewhere a backend that is always unavailable, so bash answers `sandbox_unavailable` and
 * never runs unsandboxed (acceptance 10d). The result still has to pass its `selfCheck()`.
 */
export function selectSandboxBackend(options: SelectSandboxBackendOptions = {}): SandboxBackend {
  if (options.override !== undefined) return options.override;
  const platform = options.platform ?? process.platform;
  switch (platform) {
    case 'darwin':
      return new SeatbeltBackend({ platform });
    case 'linux':
      return new BubblewrapBackend(options.bubblewrap);
    default:
      return new UnavailableSandboxBackend(`no kernel sandbox is supported on ${platform}: OpenWork uses Seatbelt on macOS and bubblewrap on Linux`);
  }
}
