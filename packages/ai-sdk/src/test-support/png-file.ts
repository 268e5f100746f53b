// A valid PNG built byte by byte, shared by every package's tests (tooling/src/image-files.ts).
export { pngFile } from '@openwork/tooling/image-files';
