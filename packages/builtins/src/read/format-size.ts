/** `512 bytes`, `84 KB`, `4.2 MB`, `4 GiB`, `1 TiB` (binary units, as `ls -lh` counts): sizes in read's messages. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const GiB = 1024 * 1024 * 1024;
  const TiB = 1024 * GiB;
  if (bytes >= TiB) return bytes % TiB === 0 ? `${bytes / TiB} TiB` : `${(bytes / TiB).toFixed(1)} TiB`;
  if (bytes >= GiB) return bytes % GiB === 0 ? `${bytes / GiB} GiB` : `${(bytes / GiB).toFixed(1)} GiB`;
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
