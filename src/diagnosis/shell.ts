/** Quotes one word for a POSIX shell so that a pasted command cannot run anything the word contains. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** Joins words into one command line, quoting each one that needs it. */
export function shellCommand(...words: string[]): string {
  return words.map(shellQuote).join(' ');
}
