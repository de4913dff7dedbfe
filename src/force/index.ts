/** What may be forced, from outside: the pure decision, the one module that writes, and how their results are told. */
export { decide } from './policy.js';
export { executePlan } from './execute.js';
export { allowedByText } from './labels.js';
export { NODE_LOST_AFTER_MS } from './plan-pods.js';
export { resultClass, resultText } from './audit.js';
export { forecastForcing } from './forecast.js';
export { undoneByWords, webhookOf, whoPutBack } from './put-back-words.js';
export { PutBackLookup } from './put-back.js';
export { withPutBack } from './put-back-finding.js';
export { cameBack } from './came-back.js';
