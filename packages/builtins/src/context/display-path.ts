import { escapePath } from '@openwork/fs-backend';

/**
 * How a path is shown in results (§7.2 "路径在工作区内时相对工作区"): relative to the workspace
 * root that contains it, else absolute. The root itself shows as `.`. The longest matching root
 * wins, so a nested root shows its own relative paths. A name with bytes that are not UTF-8 shows
 * them as `\xNN` (`escapePath`): the spelling `resolvePath` takes back.
 */
export function displayPath(realPath: string, workspaceRoots: readonly string[]): string {
  let best: string | undefined;
  for (const root of workspaceRoots) {
    if (realPath === root || realPath.startsWith(root === '/' ? '/' : `${root}/`)) {
      if (best === undefined || root.length > best.length) best = root;
    }
  }
  if (best === undefined) return escapePath(realPath);
  if (realPath === best) return '.';
  return escapePath(realPath.slice(best === '/' ? 1 : best.length + 1));
}
