/**
 * `npm run screenshot:terminal`: the command line's picture (scripts/terminal-pictures.ts). The emoji font is
 * checked first, before anything is loaded or run: a picture without emoji is worse than none.
 */
import { requireEmojiFont } from './emoji-font.js';

requireEmojiFont('npm run screenshot:terminal');
await import('./terminal-pictures.js');
