/** Inputs the tests of the engine share. */

/**
 * The fence on targets off (`target-label: none`) unless a test sets it: the tests of the engine are about the
 * teardown, whose namespaces carry no common label; the fence has tests of its own (test/settings/target-label.test.ts,
 * test/targets/fence.test.ts, test/entry/cli-habits.test.ts, test/entry/fence-bundle.test.ts).
 */
export const UNFENCED: Readonly<Record<string, string>> = { 'target-label': 'none' };
