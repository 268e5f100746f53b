// The image builders shared by every package's tests (tooling/src/image-files.ts).
export * from '@openwork/tooling/image-files';
