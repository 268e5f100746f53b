import { judgePathTarget } from './judge-path-target.js';
import type { PathTargetContext } from './judge-path-target.js';
import type { RuleMatch } from './rule-match.js';
import type { ResolvedWord } from './shell-word-resolver.js';

const formatPrograms = new Set(['mke2fs', 'mkswap', 'wipefs', 'blkdiscard']);
const partitionEditors = new Set(['fdisk', 'sfdisk', 'cfdisk', 'parted', 'gdisk', 'sgdisk', 'cgdisk']);
const powerPrograms = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const powerVerbs = new Set(['poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot', 'rescue', 'emergency']);

/** Device files that are safe to write: sinks, terminals and descriptors, not disks. */
export function isHarmlessDevice(devicePath: string): boolean {
  // `/dev/tcp/host/port` and `/dev/udp/…` are bash's own network redirections, not files.
  return /^\/dev\/(?:null|zero|full|random|urandom|tty\d*|stdout|stderr|stdin|ptmx|console|fd\/\d+|pts\/\d+|shm(?:\/.*)?|(?:tcp|udp)\/.*)$/.test(
    devicePath.replace(/\/+/g, '/'),
  );
}

/** A write target under /dev that is a disk or other device (`/dev/sda`, `/dev/nvme0n1`, `/dev/mem`). */
export function isDeviceTarget(target: string | undefined): boolean {
  return target !== undefined && /^\/+dev\/+./.test(target) && !isHarmlessDevice(target);
}

/** Rules for one program that are not about deleting files or git (§3.6). */
export function checkSystemCommand(
  program: string,
  argumentsAfterProgram: readonly ResolvedWord[],
  context: PathTargetContext,
): RuleMatch[] {
  const values = argumentsAfterProgram.map((word) => word.value);
  if (program.startsWith('mkfs') || formatPrograms.has(program)) {
    return [{ rule: 'format-filesystem', reason: `${program} erases a disk or partition. Never format devices from an agent; ask the user to do it.` }];
  }
  if (partitionEditors.has(program) && !values.some((text) => text === '-l' || text === '--list' || text === 'print' || text === '-p' || text === '--print')) {
    return [{ rule: 'format-filesystem', reason: `${program} rewrites a disk's partition table, which makes everything on it unreachable. Never partition disks from an agent; ask the user to do it.` }];
  }
  if ((program === 'cp' || program === 'install') && isDeviceTarget(copyDestination(values))) {
    return [{ rule: 'device-write', reason: `${program} onto a device overwrites the raw device and destroys its contents. Copy to a regular file instead.` }];
  }
  if (program === 'tee' && values.some((text) => isDeviceTarget(text))) {
    return [{ rule: 'device-write', reason: 'tee into a device overwrites the raw device and destroys its contents. Write to a regular file instead.' }];
  }
  if (program === 'crontab' && values.some((text) => text !== undefined && /^-[a-zA-Z]*r/.test(text))) {
    return [{ rule: 'crontab-remove', reason: 'crontab -r deletes every scheduled job of the user at once, with no copy kept. Edit the one entry you mean with crontab -e, or ask the user.' }];
  }
  if (program === 'mv') return checkMove(argumentsAfterProgram, context);
  if (program === 'rsync') return checkSynchronise(argumentsAfterProgram, context);
  if (program === 'dd' && values.some((text) => text?.startsWith('of=') && isDeviceTarget(text.slice(3)))) {
    return [{ rule: 'device-write', reason: 'dd of=/dev/… overwrites a raw device and destroys its contents. Write to a regular file instead.' }];
  }
  if (program === 'shred' && values.some((text) => isDeviceTarget(text))) {
    return [{ rule: 'device-write', reason: 'shred on a device destroys its contents. Shred individual files only.' }];
  }
  if (powerPrograms.has(program) ||
      (program === 'systemctl' && values.some((text) => text !== undefined && powerVerbs.has(text))) ||
      ((program === 'init' || program === 'telinit') && (values[0] === '0' || values[0] === '6'))) {
    return [{ rule: 'system-power', reason: `${program} shuts down or restarts the machine. Do not do this from an agent; ask the user.` }];
  }
  if (program === 'kill') return checkKill(values);
  if (program === 'pkill' || program === 'killall') return checkKillByName(program, values);
  if (program === 'chmod' || program === 'chown' || program === 'chgrp') {
    return checkPermissionChange(program, argumentsAfterProgram, context);
  }
  if (program === 'su') {
    return [{ rule: 'privilege-escalation', reason: 'su runs commands as another user (usually root), outside the permissions this session was given. Ask the user to run it themselves.' }];
  }
  return [];
}

function checkKill(values: readonly (string | undefined)[]): RuleMatch[] {
  let index = 0;
  const first = values[0];
  if (first === '-s' || first === '-n') index = 2;
  else if (first !== undefined && first !== '--' && /^-(?:[A-Za-z]+|\d+)$/.test(first) && first !== '-1') index = 1;
  else if (first === '-1') index = 1; // `kill -1 PID`: a leading -1 is the signal (SIGHUP)
  const targets = values.slice(index).filter((text) => text !== '--');
  if (targets.includes('-1')) {
    return [{ rule: 'kill-all-processes', reason: 'kill with pid -1 signals every process you may signal, which ends the session, editors and services. Kill the specific process id instead.' }];
  }
  return [];
}

function checkKillByName(program: string, values: readonly (string | undefined)[]): RuleMatch[] {
  const userSelection = values.some((text) => text !== undefined && /^(?:-u|-U|--euid|--uid|--user)(?:=.*)?$|^-u\S/.test(text));
  const withArgument = new Set(['-u', '-U', '-g', '-G', '-P', '-s', '-t', '--euid', '--uid', '--user', '--signal', '--parent', '--pgroup', '--group', '--session', '--terminal', '--older-than', '--younger-than']);
  const patterns: string[] = [];
  for (let index = 0; index < values.length; index++) {
    const text = values[index];
    if (text === undefined) continue;
    if (text.startsWith('-')) {
      if (withArgument.has(text)) index++;
      continue;
    }
    patterns.push(text);
  }
  const matchesEverything = patterns.length === 0 || patterns.some((pattern) => /^(?:\.\*?|\.\+|\^|\$|\^\.\*\$?)$/.test(pattern));
  if ((userSelection && patterns.length === 0) || (patterns.length > 0 && matchesEverything)) {
    return [{ rule: 'kill-all-processes', reason: `${program} here matches every process of a user (or every process), which ends the session and other programs. Name the specific process instead.` }];
  }
  return [];
}

function checkPermissionChange(
  program: string,
  argumentsAfterProgram: readonly ResolvedWord[],
  context: PathTargetContext,
): RuleMatch[] {
  let recursive = false;
  let reference = false;
  const operands: ResolvedWord[] = [];
  for (const word of argumentsAfterProgram) {
    const text = word.value;
    if (text === '--recursive' || (text !== undefined && /^-[cfvhHLPR]+$/.test(text) && text.includes('R'))) recursive = true;
    else if (text?.startsWith('--reference')) reference = true;
    else if (text !== undefined && (text.startsWith('--') || /^-[cfvhHLP]+$/.test(text))) continue;
    else operands.push(word); // chmod modes like -w land here too, which is what they are
  }
  if (!recursive) return [];
  const mode = reference ? undefined : operands[0]?.value;
  const targets = reference ? operands : operands.slice(1);
  const matches: RuleMatch[] = [];
  if (program === 'chmod' && mode !== undefined && isWorldWritableMode(mode)) {
    matches.push({ rule: 'recursive-permission-change', reason: `chmod -R ${mode} makes every file below writable by every user (and often executable). Give only the permissions needed, on the specific files.` });
  }
  for (const target of targets) {
    const judgement = judgePathTarget(target.pattern, context);
    if (judgement.kind === 'critical') {
      matches.push({ rule: 'recursive-permission-change', reason: `${program} -R would change ownership or permissions of ${judgement.description}, which can break the system or other users' files. Limit it to the specific directory you mean.` });
    }
  }
  return matches;
}

/** 777, 0666, 1777, a+w, o+rwx, ugo=rwx: the "others" class gets write permission. */
function isWorldWritableMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return /[2367]$/.test(mode);
  return mode.split(',').some((clause) => {
    const match = /^([ugoa]*)([+=])([rwxXst]*)$/.exec(clause);
    return match !== null && (match[1] === '' ? false : /[oa]/.test(match[1] ?? '')) && (match[3] ?? '').includes('w');
  });
}

/** The destination of `cp`/`install`: `-t DIR`, `--target-directory=DIR`, or the last operand. */
function copyDestination(values: readonly (string | undefined)[]): string | undefined {
  for (let index = 0; index < values.length; index++) {
    const text = values[index];
    if (text === '-t' || text === '--target-directory') return values[index + 1];
    if (text?.startsWith('--target-directory=')) return text.slice('--target-directory='.length);
  }
  const operands = values.filter((text) => text === undefined || !text.startsWith('-'));
  return operands.length >= 2 ? operands[operands.length - 1] : undefined;
}

/** `mv ~ …`, `mv /usr …`, `mv <workspace root> …`: the directory is gone from where everything expects it (§3.6). */
function checkMove(argumentsAfterProgram: readonly ResolvedWord[], context: PathTargetContext): RuleMatch[] {
  const operands: ResolvedWord[] = [];
  let targetDirectoryGiven = false;
  let optionsEnded = false;
  for (let index = 0; index < argumentsAfterProgram.length; index++) {
    const word = argumentsAfterProgram[index] as ResolvedWord;
    const text = word.value;
    if (!optionsEnded && text === '--') optionsEnded = true;
    else if (!optionsEnded && (text === '-t' || text === '--target-directory' || text === '-S' || text === '--suffix')) {
      if (text === '-t' || text === '--target-directory') targetDirectoryGiven = true;
      index++;
    } else if (!optionsEnded && text?.startsWith('--target-directory=')) targetDirectoryGiven = true;
    else if (!optionsEnded && text !== undefined && text.startsWith('-') && text !== '-') continue;
    else operands.push(word);
  }
  const sources = targetDirectoryGiven ? operands : operands.slice(0, -1);
  const matches: RuleMatch[] = [];
  for (const source of sources) {
    // A glob that moves everything (`mv * sub/`) is ordinary reorganising; a named directory is not.
    if (/[\u0000\u0001\u0004]/.test(source.pattern)) continue;
    const judgement = judgePathTarget(source.pattern, context);
    if (judgement.kind === 'critical') {
      matches.push({ rule: 'move-critical', reason: `mv would move ${judgement.description} away; everything that expects it there (your shell, tools, the sandbox's own paths) breaks. Move only the specific files you mean.` });
    }
  }
  return matches;
}

/** `rsync --delete SRC DEST` deletes whatever in DEST is not in SRC: like `rm -r` of DEST when SRC is empty. */
function checkSynchronise(argumentsAfterProgram: readonly ResolvedWord[], context: PathTargetContext): RuleMatch[] {
  const values = argumentsAfterProgram.map((word) => word.value);
  if (!values.some((text) => text !== undefined && /^--(?:delete|del$|remove-source-files)/.test(text))) return [];
  const withArgument = new Set(['-e', '--rsh', '--exclude', '--include', '--filter', '-f', '--files-from', '--exclude-from', '--include-from', '--backup-dir', '--suffix', '--chmod', '--rsync-path', '-T', '--temp-dir', '--compare-dest', '--copy-dest', '--link-dest', '--log-file', '--password-file', '--port', '--timeout', '--max-size', '--min-size', '-B', '--block-size']);
  const operands: ResolvedWord[] = [];
  for (let index = 0; index < argumentsAfterProgram.length; index++) {
    const word = argumentsAfterProgram[index] as ResolvedWord;
    const text = word.value;
    if (text !== undefined && withArgument.has(text)) index++;
    else if (text === undefined || !text.startsWith('-')) operands.push(word);
  }
  const destination = operands[operands.length - 1];
  // A remote destination (`host:path`) is someone else's machine; judged only when local.
  if (operands.length < 2 || destination === undefined || /^[^/]*:/.test(destination.value ?? '')) return [];
  const judgement = judgePathTarget(destination.pattern.replace(/\/+$/, '') || '/', context);
  if (judgement.kind !== 'critical') return [];
  return [{ rule: 'recursive-delete', reason: `rsync --delete would delete everything in ${judgement.description} that the source does not have (all of it, for an empty source). Synchronise into a specific subdirectory instead.` }];
}
