/** What may be forced, from outside: the pure decision, the one module that writes, and how their results are told. */
export { decide } from './policy.js';
export { executePlan } from './execute.js';
export { allowedByText } from './labels.js';
export { resultClass, resultText } from './audit.js';
export { forecastForcing } from './forecast.js';
