import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { FileSystemError, NodeFileSystem, WriteLocks, type AsyncFileSystem } from '@openwork/fs-backend';
import { createSandboxPolicy, type SandboxMode, type SandboxPolicy } from '@openwork/sandbox';
import { createFileChange, type FileChangeArtifact, type FileChangeEngineOptions } from '../../index.js';

/**
 * A scratch world for file-change tests: a workspace, a home with its OpenWork home, and a folder
 * outside both, all in a fresh temp directory (never the real home). `tempRoots: []`, so the
 * temp directory itself is not writable by policy and "outside" really is outside.
 */
export interface FileChangeWorkspace {
  readonly root: string;
  readonly workspace: string;
  readonly home: string;
  readonly outside: string;
  readonly filesystem: NodeFileSystem;
  readonly writeLocks: WriteLocks;
  policy(mode?: SandboxMode): SandboxPolicy;
  /** Engine options over this workspace's backend and locks (or another backend, for fault injection). */
  engine(options?: { readonly mode?: SandboxMode; readonly filesystem?: AsyncFileSystem }): FileChangeEngineOptions;
  /** An absolute path below the workspace. */
  path(relativePath: string): string;
  /**
   * What `write` does, minus the tool: write `content` to `target` (relative to the workspace, or
   * absolute) under its lock with the compare-before-rename, and return the file_change artifact.
   */
  change(changeId: string, target: string, content: string): Promise<FileChangeArtifact>;
  read(target: string): Promise<string>;
  remove(): Promise<void>;
}

export async function createFileChangeWorkspace(): Promise<FileChangeWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ow-file-changes-')));
  const workspace = join(root, 'workspace');
  const home = join(root, 'home');
  const outside = join(root, 'outside');
  await Promise.all([mkdir(workspace), mkdir(join(home, '.openwork'), { recursive: true }), mkdir(outside)]);
  const filesystem = new NodeFileSystem();
  const writeLocks = new WriteLocks();
  const policy = (mode: SandboxMode = 'workspace-write') =>
    createSandboxPolicy({ mode, workspaceRoots: [workspace], homeDirectory: home, tempRoots: [] });
  const absolute = (target: string) => (target.startsWith('/') ? target : join(workspace, target));
  return {
    root,
    workspace,
    home,
    outside,
    filesystem,
    writeLocks,
    policy,
    engine: (options = {}) => ({ filesystem: options.filesystem ?? filesystem, writeLocks, policy: policy(options.mode) }),
    path: (relativePath) => join(workspace, relativePath),
    async change(changeId, target, content) {
      const realPath = absolute(target);
      return writeLocks.withLock(realPath, async () => {
        let before: Uint8Array | null = null;
        try {
          before = await filesystem.readFile(realPath);
        } catch (error) {
          if (!FileSystemError.isInstance(error) || error.code !== 'not_found') throw error;
        }
        await filesystem.mkdirp(dirname(realPath));
        const after = Buffer.from(content, 'utf8');
        const beforeHash = before === null ? null : await filesystem.sha256File(realPath);
        const written = await filesystem.atomicWrite(realPath, after, { expectedHash: beforeHash });
        const stat = await filesystem.stat(realPath);
        const inside = !relative(workspace, realPath).startsWith('..');
        return createFileChange({
          changeId,
          path: target,
          realPath,
          displayPath: inside ? relative(workspace, realPath) : realPath,
          before,
          after,
          beforeHash,
          afterHash: written.sha256,
          mode: stat.mode,
        });
      });
    },
    read: (target) => readFile(absolute(target), 'utf8'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
