/**
 * The payments service's failures as the window names them: every code the API client and the
 * payment engine know has a sentence of its own in both catalogs, the Portuguese one with no
 * English in it — never the "erro do serviço de pagamentos (conflict)" fallback.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYMENTS_ERROR_CODES, type PaymentsErrorCode } from '../../main/api/errors.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { englishWordsIn } from '../helpers/english-words.js';

/** The window's catalogs as built (renderer/ is compiled against the DOM, apart from the agent). */
interface Catalogs {
  isMessageKey(key: string): boolean;
  textIn(language: 'pt-BR' | 'en', key: string): string;
}
let catalogs: Catalogs;

beforeAll(async () => {
  const built = join(PACKAGE_ROOT, 'dist', 'renderer', 'i18n.js');
  if (!existsSync(built)) throw new Error('dist/renderer/i18n.js is missing: run `npm run build` first');
  catalogs = (await import(pathToFileURL(built).href)) as Catalogs;
});

// The client's list and its codes are the same set: `npm run typecheck` fails otherwise.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameCodes: Same<PaymentsErrorCode, (typeof PAYMENTS_ERROR_CODES)[number]> = true;
const clientCodes: readonly PaymentsErrorCode[] = PAYMENTS_ERROR_CODES;

describe("the payments service's failures in the window", () => {
  it.each(clientCodes)('%s has a Portuguese and an English sentence of its own', (code) => {
    const key = `apiError.${code}`;
    expect(catalogs.isMessageKey(key)).toBe(true);
    const pt = catalogs.textIn('pt-BR', key);
    expect(pt).not.toBe(catalogs.textIn('en', key));
    expect(englishWordsIn(pt), pt).toEqual([]);
    expect(englishWordsIn(catalogs.textIn('en', key)).length).toBeGreaterThan(0);
  });

  it('knows as many codes as the client has', () => {
    expect(sameCodes).toBe(true);
    expect(clientCodes.length).toBe(14);
  });
});
