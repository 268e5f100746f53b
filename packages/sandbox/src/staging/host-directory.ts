import * as fs from 'node:fs';

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

  /** The child folder `name`, opened without following a link; undefined when it is not a folder. */
  openChild(name: string): HostDirectory | undefined {
    try {
      return new HostDirectory(this.childPath(name), fs.openSync(this.entry(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
    } catch {
      return undefined;
    }
  }

  /** The path by which the kernel resolves `name` in this very folder. */
  entry(name: string): string {
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

  names(): string[] {
    return fs.readdirSync(this.entry('.'));
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
