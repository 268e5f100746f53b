import * as fs from 'node:fs';

/** `__SO_ACCEPTCON` in the Flags column of `/proc/net/unix`: the socket listens. */
const listening = 0x10000;

/**
 * The file-system paths of every UNIX socket a process of this network namespace listens on
 * (architecture §3.7: tmux, screen, ssh-agent, gpg-agent, D-Bus, `systemd --user`, X11/Wayland,
 * docker/podman), from `/proc/net/unix`. Abstract sockets (`@name`) and unnamed ones have no path;
 * a relative path (a daemon that bound `sock` after `chdir`) cannot be placed and is left out
 * (README, known limits). Empty off Linux.
 */
export function listeningUnixSockets(): string[] {
  let text: string;
  try {
    text = fs.readFileSync('/proc/net/unix', 'latin1');
  } catch {
    return [];
  }
  const paths = new Set<string>();
  let start = text.indexOf('\n') + 1; // the header line
  while (start > 0 && start < text.length) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    start = end === -1 ? text.length : end + 1;
    const fields = line.trim().split(/ +/);
    if (fields.length < 8 || (Number.parseInt(fields[3] ?? '0', 16) & listening) === 0) continue;
    const socketPath = Buffer.from(fields.slice(7).join(' '), 'latin1').toString('utf8');
    if (socketPath.startsWith('/')) paths.add(socketPath);
  }
  return [...paths];
}
