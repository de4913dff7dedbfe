/** Code-unit order, not localeCompare: the same on every machine and in every locale, so output is stable. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
