import * as fs from 'node:fs';

/** A mount of the host a command could write through: where it is, and whether it is read-only. */
export interface HostMount {
  readonly mountPoint: string;
  readonly readOnly: boolean;
}

/** File systems of the kernel's own (no files a command could leave behind on the host). */
const kernelFileSystems = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'cgroup', 'cgroup2', 'securityfs', 'debugfs', 'tracefs', 'pstore', 'bpf', 'mqueue',
  'hugetlbfs', 'configfs', 'fusectl', 'binfmt_misc', 'autofs', 'nsfs', 'efivarfs', 'selinuxfs', 'rpc_pipefs', 'ramfs',
]);

/** mountinfo escapes space, tab, newline and backslash as octal (`\040`). */
function unescapeField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * The host's mounts of real file systems (proc(5) `mountinfo`), outside the kernel's own folders
 * (`/proc`, `/sys`, `/dev`, which the sandbox makes afresh), the last one at each place: an overlay
 * shows its lower layer without the mounts below it, so each of these inside a writable folder
 * gets an overlay of its own.
 */
export function hostMounts(text?: string): HostMount[] {
  let info = text;
  if (info === undefined) {
    try {
      info = fs.readFileSync('/proc/self/mountinfo', 'utf8');
    } catch {
      return [];
    }
  }
  const byPoint = new Map<string, HostMount>();
  for (const line of info.split('\n')) {
    const fields = line.split(' ');
    const separator = fields.indexOf('-');
    if (fields.length < 7 || separator < 6) continue;
    const mountPoint = unescapeField(fields[4] as string);
    const type = fields[separator + 1] ?? '';
    byPoint.delete(mountPoint); // a later mount at the same place hides the earlier one
    if (/^\/(proc|sys|dev)(\/|$)/.test(mountPoint) || kernelFileSystems.has(type)) continue;
    const options = (fields[5] ?? '').split(',');
    byPoint.set(mountPoint, { mountPoint, readOnly: options.includes('ro') });
  }
  return [...byPoint.values()];
}
