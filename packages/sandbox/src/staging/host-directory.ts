import * as fs from 'node:fs';
import { pathFromBytes, toNodePath } from '../policy/path-bytes.js';

const { O_DIRECTORY, O_NOFOLLOW, O_RDONLY } = fs.constants;

/**
 * A folder of the host opened without following a symbolic link at any component below its root,
 * and named through its descriptor (`/proc/self/fd/N/name`): every operation on an entry acts on
 * the folder that was opened, even if the path that led there is swapped for a link meanwhile
 * (architecture §3.7 "races"). Linux only, like the staged writes that use it.
 */
export class HostDirectory {
  readonly path: string;
  readonly #fd: number;
  #closed = false;

  private constructor(path: string, fd: number) {
    this.path = path;
    this.#fd = fd;
  }

  /** Opens `root` (a canonical folder: no component is a link), or undefined if it is not a folder. */
  static openRoot(root: string): HostDirectory | undefined {
    try {
      return new HostDirectory(root, fs.openSync(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
    } catch {
      return undefined;
    }
  }

  /**
   * Opens a trusted anchor that may itself be a magic link (`/proc/<pid>/root`: a process's own
   * root); everything below it is then opened without following links.
   */
  static openAnchor(anchor: string): HostDirectory | undefined {
    try {
      return new HostDirectory(anchor, fs.openSync(anchor, O_RDONLY | O_DIRECTORY));
    } catch {
      return undefined;
    }
  }

  /**
   * The child folder `name`, opened without following a link; undefined when it is not a folder.
   * `path` names it in texts and judgments (default: its path below this folder) — a folder staged
   * under a temporary name is judged by the name it will have.
   */
  openChild(name: string, path: string = this.childPath(name)): HostDirectory | undefined {
    try {
      return new HostDirectory(path, fs.openSync(this.entry(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
    } catch {
      return undefined;
    }
  }

  /**
   * The path by which the kernel resolves `name` in this very folder: a string, or its bytes when
   * the name holds a byte that is not UTF-8 (docs/decisions/0003: such a byte is a lone U+DC80–U+DCFF).
   */
  entry(name: string): string | Buffer {
    if (this.#closed) throw new Error(`${this.path} was closed`);
    return toNodePath(this.entryText(name));
  }

  /** `entry(name)` as a path string (a byte that is not UTF-8 as a lone U+DC80–U+DCFF): for a judge that takes strings. */
  entryText(name: string): string {
    if (this.#closed) throw new Error(`${this.path} was closed`);
    return `/proc/self/fd/${this.#fd}/${name}`;
  }

  /** The host path of `name` (for texts and judgments). */
  childPath(name: string): string {
    return this.path === '/' ? `/${name}` : `${this.path}/${name}`;
  }

  lstat(name: string): fs.Stats | undefined {
    try {
      return fs.lstatSync(this.entry(name));
    } catch {
      return undefined;
    }
  }

  /** The same, with times in nanoseconds (a change time compared with a call's base). */
  lstatExact(name: string): fs.BigIntStats | undefined {
    try {
      return fs.lstatSync(this.entry(name), { bigint: true });
    } catch {
      return undefined;
    }
  }

  /** The names in this folder, exactly: a byte that is not UTF-8 comes back as a lone U+DC80–U+DCFF (0003). */
  names(): string[] {
    return fs.readdirSync(this.entry('.'), { encoding: 'buffer' }).map((name) => pathFromBytes(name));
  }

  /** Change this folder's own permission bits through its descriptor. */
  chmodSelf(mode: number): void {
    fs.fchmodSync(this.#fd, mode);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    fs.closeSync(this.#fd);
  }
}
