import { run } from './action.js';

await run();
// The result is published: a connection the server never answers (a watch still opening) must not hold the step.
setTimeout(() => process.exit(), 500).unref();
