/**
 * The window's files as the POS server serves them (main/pos/server/server.ts): the page and its
 * stylesheet from renderer/, its compiled scripts from dist/renderer/ at /app/NAME.js, and the
 * scripts of its folders (the settings page's panels, the language catalogs) at
 * /app/FOLDER/NAME.js — one folder deep, compiled scripts only.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posRig, type PosRig } from '../pos-rig.js';

let pos: PosRig;

beforeAll(async () => {
  pos = await posRig();
});
afterAll(async () => pos.close());

const get = (path: string): Promise<Response> => fetch(`http://127.0.0.1:${pos.server.port}${path}`);

describe("the window's scripts", () => {
  it('serves the scripts of its folders as JavaScript, like those beside main.js', async () => {
    for (const path of ['/app/main.js', '/app/i18n/en.js', '/app/i18n/pt-br.js', '/app/settings/restart.js']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe('text/javascript; charset=utf-8');
    }
  });

  it('serves nothing else from a folder: no sources, no maps, no page, nothing two deep or above', async () => {
    for (const path of [
      '/app/i18n/en.ts',
      '/app/i18n/en.js.map',
      '/app/i18n/index.html',
      '/app/i18n/missing.js',
      '/app/..%2Fdist/main.js',
      '/app/I18N/en.js',
      '/app/i18n/sub/en.js',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
  });
});
