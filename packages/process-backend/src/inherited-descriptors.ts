import * as fs from 'node:fs';

/** `O_CLOEXEC` in the `flags:` line of `/proc/self/fdinfo/N` (octal, Linux). */
const closeOnExec = 0o2000000;

let nullDescriptor: number | undefined;

/** Open descriptors above stderr, listed from `/proc/self/fd` (Linux) or `/dev/fd` (macOS). */
function openDescriptors(): { readonly descriptors: number[]; readonly flagsKnown: boolean } {
  for (const folder of ['/proc/self/fd', '/dev/fd']) {
    let names: string[];
    try {
      names = fs.readdirSync(folder);
    } catch {
      continue;
    }
    const descriptors = names.map(Number).filter((fd) => Number.isInteger(fd) && fd > 2);
    return { descriptors, flagsKnown: folder === '/proc/self/fd' };
  }
  return { descriptors: [], flagsKnown: false };
}

function inheritedByChildren(fd: number): boolean {
  try {
    const match = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
    return match === null || (Number.parseInt(match[1] ?? '0', 8) & closeOnExec) === 0;
  } catch {
    return false; // closed meanwhile (the listing's own descriptor): nothing to shut
  }
}

/**
 * Architecture §3.7: only stdin, stdout and stderr cross into a started process. Node opens
 * everything close-on-exec, but descriptors this process inherited without it (a launcher's
 * `exec {fd}>>file`) reach every child, and libuv does not close them. The stdio entries for
 * `spawn`: `[stdin, stdout, stderr]`, then `/dev/null` at the number of each such descriptor
 * (libuv `dup2`s it there in the child, before `exec`), `'ignore'` between. Without any: the three
 * entries unchanged, at the cost of one folder listing. Off Linux every open descriptor above 2 is
 * covered, since close-on-exec cannot be read there.
 */
export function stdioWithoutInheritedDescriptors<T>(standard: readonly [T, T, T]): Array<T | number | 'ignore'> {
  const { descriptors, flagsKnown } = openDescriptors();
  const inherited = flagsKnown ? descriptors.filter(inheritedByChildren) : descriptors;
  if (inherited.length === 0) return [...standard];
  nullDescriptor ??= fs.openSync('/dev/null', 'r+');
  const stdio: Array<T | number | 'ignore'> = [...standard];
  const shut = new Set(inherited);
  const last = Math.max(...inherited);
  for (let fd = 3; fd <= last; fd += 1) stdio.push(shut.has(fd) ? nullDescriptor : 'ignore');
  return stdio;
}
