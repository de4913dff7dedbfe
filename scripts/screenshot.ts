/**
 * `npm run screenshot [scenario…]`: the job summaries' pictures (scripts/summary-pictures.ts). The emoji font is
 * checked first, before the scenarios and renderers are even loaded: a picture without emoji is worse than none.
 */
import { requireEmojiFont } from './emoji-font.js';

requireEmojiFont('npm run screenshot');
await import('./summary-pictures.js');
