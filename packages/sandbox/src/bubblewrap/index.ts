export { BubblewrapBackend } from './bubblewrap-backend.js';
export type { BubblewrapBackendOptions } from './bubblewrap-backend.js';
