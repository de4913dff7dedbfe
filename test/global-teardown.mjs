export { teardown as default } from './temp-root.mjs';
