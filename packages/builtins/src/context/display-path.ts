/**
 * How a path is shown in results (§7.2 "路径在工作区内时相对工作区"): relative to the workspace
 * root that contains it, else absolute. The root itself shows as `.`. The longest matching root
 * wins, so a nested root shows its own relative paths.
 */
export function displayPath(realPath: string, workspaceRoots: readonly string[]): string {
  let best: string | undefined;
  for (const root of workspaceRoots) {
    if (realPath === root || realPath.startsWith(root === '/' ? '/' : `${root}/`)) {
      if (best === undefined || root.length > best.length) best = root;
    }
  }
  if (best === undefined) return realPath;
  if (realPath === best) return '.';
  return realPath.slice(best === '/' ? 1 : best.length + 1);
}
