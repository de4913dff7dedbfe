/** After SIGINT/SIGTERM, how long the run may take to stop before the state known so far is published. */
export const CANCEL_BUDGET_MS = 4_000;
