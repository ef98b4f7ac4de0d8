/**
 * The window at 1280×800: every page and dialog state of layout-states.ts (what each checks is
 * said there), in real Chromium. (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { layoutSpecAt, SIZES } from './layout-states.js';

layoutSpecAt(SIZES[0]);
