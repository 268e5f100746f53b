/** §8.4 (and §9 `MAX_BYTES`): undo and reapply only touch UTF-8 text files of at most 1 MiB. */
export const MAX_FILE_CHANGE_BYTES = 1024 * 1024;
