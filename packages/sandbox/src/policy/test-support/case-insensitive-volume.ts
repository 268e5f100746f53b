import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** A mounted exFAT image: a folder on Linux that finds names under any letter case. */
export interface CaseInsensitiveVolume {
  /** The mount point, canonical. */
  readonly path: string;
  unmount(): void;
}

/** What is needed and missing, when no volume can be made here (shown as the skip reason). */
export type CaseInsensitiveVolumeResult = { readonly volume: CaseInsensitiveVolume } | { readonly unavailable: string };

function which(program: string): string | undefined {
  for (const directory of ['/usr/sbin', '/sbin', '/usr/bin', '/bin']) {
    const candidate = path.join(directory, program);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Make a case-insensitive folder on Linux for tests (docs/decisions/0044-sandbox-letter-case.md): the kernel here has no `casefold`
 * (CONFIG_UNICODE), so a 32 MiB exFAT image is formatted (`mkfs.exfat`, Debian exfatprogs),
 * attached to a loop device and mounted through FUSE (`mount.exfat-fuse`, Debian exfat-fuse).
 * Needs root. Returns why not, instead of throwing, so a suite can skip with a visible reason.
 */
export function mountCaseInsensitiveVolume(): CaseInsensitiveVolumeResult {
  if (process.platform !== 'linux') return { unavailable: `loop-mounted exFAT is a Linux set-up; this is ${process.platform}` };
  if (process.getuid?.() !== 0) return { unavailable: 'mounting an exFAT image needs root' };
  const tools = { mkfs: which('mkfs.exfat'), mount: which('mount.exfat-fuse'), losetup: which('losetup'), umount: which('umount') };
  const missing = Object.entries(tools).filter(([, found]) => found === undefined).map(([name]) => name);
  if (missing.length > 0) return { unavailable: `missing ${missing.join(', ')} (Debian packages exfatprogs, exfat-fuse, mount)` };
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ow-casefold-')));
  const image = path.join(scratch, 'volume.img');
  const mountPoint = path.join(scratch, 'mnt');
  let device: string | undefined;
  let mounted = false;
  /** Idempotent: a suite may call it from more than one hook. */
  const cleanUp = (): void => {
    if (mounted) execFileSync(tools.umount as string, [mountPoint], { stdio: 'ignore' });
    mounted = false;
    if (device !== undefined) execFileSync(tools.losetup as string, ['-d', device], { stdio: 'ignore' });
    device = undefined;
    fs.rmSync(scratch, { recursive: true, force: true });
  };
  try {
    fs.mkdirSync(mountPoint);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 32 * 1024 * 1024);
    execFileSync(tools.mkfs as string, [image], { stdio: 'ignore' });
    device = execFileSync(tools.losetup as string, ['-f', '--show', image], { encoding: 'utf8' }).trim();
    execFileSync(tools.mount as string, [device, mountPoint], { stdio: 'ignore' });
    mounted = true;
    return { volume: { path: mountPoint, unmount: cleanUp } };
  } catch (error) {
    try {
      cleanUp();
    } catch {
      // best effort
    }
    return { unavailable: `could not mount an exFAT image here: ${String((error as Error).message ?? error).split('\n')[0]}` };
  }
}
