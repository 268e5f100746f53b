import { isInsideAnyScopedPath } from '../policy/is-inside-scoped-path.js';
import { isInsideAnyProtectedEntry } from '../policy/letter-case.js';
import { MountPhase } from './mount-plan.js';
import type { MountPlan } from './mount-plan.js';

/**
 * Architecture §3.7 "reachable processes": no sandboxed command may make a host daemon act for it
 * through a UNIX socket. `connect()` needs only the socket's name — it works on read-only mounts —
 * so every socket a host process listens on when the call starts (`host.listeningSockets`) gets
 * `/dev/null` bound over it: a connect there fails with `Connection refused`. A bind over a name
 * pins it: it cannot be removed, renamed or linked elsewhere while the call runs. Sockets the
 * command makes itself are new names and work as usual; abstract sockets have no name to mask:
 * the Landlock scope (`landlockScope`) or a network namespace of its own (`network: 'none'`) keeps
 * the host's out of reach. Allowed sockets stay reachable; sockets
 * below a masked credential folder are unreachable already.
 */
export function maskHostSockets(plan: MountPlan): void {
  const { layout } = plan;
  const sockets = plan.host.listeningSockets?.() ?? [];
  const allowed = (layout.allowedSockets ?? []).map((path) => ({ path, scope: 'exact' as const }));
  const masked = new Set<string>();
  for (const socket of sockets) {
    const state = plan.stateOf(socket);
    // bwrap gives the command a fresh `/dev` and `/proc`: a socket there (`/dev/log`) is not in them.
    if (state.kind !== 'file' || masked.has(state.path) || /^\/(dev|proc)\//.test(state.path)) continue;
    if (isInsideAnyScopedPath(socket, allowed) || isInsideAnyScopedPath(state.path, allowed)) continue;
    if (isInsideAnyProtectedEntry(state.path, layout.unreadable, layout.letterCase)) continue;
    masked.add(state.path);
    plan.mount(state.path, MountPhase.Mask, ['--ro-bind', '/dev/null', state.path]);
    // A daemon that ends between this rendering and bwrap's start takes its socket file with it,
    // and bwrap then creates the mount point: an empty read-only file in someone else's folder.
    // Recorded like the mount points we create, the sweep removes that file after the call; a
    // socket still there is no regular file and stays (`removeIfStillOurs`).
    plan.createdMountPoints.push(state.path);
  }
}
