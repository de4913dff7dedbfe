/** Reading untrusted JSON from the API: each helper gives the shape asked for, or an empty or undefined value. Pure. */

export type Json = Record<string, unknown>;

/** `v` when it is an object (not null, not an array), else `{}`. */
export const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
/** `v` when it is an array, else `[]`. */
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** `v` when it is a string. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** The strings of `v` when it is an array; anything else in it is left out. */
export const strs = (v: unknown): string[] => arr(v).flatMap((x) => (typeof x === 'string' ? [x] : []));
