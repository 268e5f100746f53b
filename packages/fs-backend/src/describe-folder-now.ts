import { realpath } from 'node:fs/promises';

/**
 * Why the folder a write was checked in is not that folder any more, in words for the refusal:
 * it resolves elsewhere (a link on the way), cannot be resolved, or is another folder now.
 */
export async function describeFolderNow(folder: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    const code = (error as { code?: string }).code;
    return `its folder ${folder} cannot be resolved any more (${code ?? String(error)})`;
  }
  if (real !== folder) return `its folder ${folder} now resolves to ${real} (a folder on the way is a symbolic link)`;
  return `its folder ${folder} was moved away or replaced by another folder meanwhile`;
}
