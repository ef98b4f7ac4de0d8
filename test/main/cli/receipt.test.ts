/**
 * `pinbridge receipt show|print`: a receipt from the journal a real `pinbridge pay` wrote (training
 * mode: simulated PINPAD, embedded sandbox), shown in each format and printed on a simulated
 * ESC/POS printer over TCP — run in-process through the CLI's `main()` with a temp HOME.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runMain } from '../../helpers/cli.js';
import { decodeEscPos, EPSON_CODE_TABLES } from '../../helpers/escpos-decode.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';

let home: string;
let sim: PrinterSimulator | undefined;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-receipt-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  rmSync(home, { recursive: true, force: true });
});

type Result = Awaited<ReturnType<typeof runMain>>;
const pinbridge = (...args: string[]): Promise<Result> => runMain(args, { HOME: home, PINBRIDGE_LOG_LEVEL: 'silent' });

async function paid(reference: string, ...extra: string[]): Promise<void> {
  const result = await pinbridge(
    'pay',
    '--port',
    'sim',
    '--amount',
    '45000',
    '--type',
    'credit',
    '--installments',
    '3',
    '--reference',
    reference,
    ...extra,
  );
  expect(result.code).toBe(0);
}

function settingsFile(content: unknown): string {
  const path = join(home, 'settings.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const STORE = {
  merchant: { name: 'PADARIA PÃO DOURADO LTDA', cnpj: '11222333000181', address: ['Av. São João, 1000'] },
};

describe('pinbridge receipt show', () => {
  it("shows training mode's receipt as text, marked TREINAMENTO, with the installments", async () => {
    await paid('pdv-10');
    const result = await pinbridge('receipt', 'show', 'pdv-10', '--training', '--columns', '42');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toContain('TREINAMENTO - SEM VALOR');
    expect(result.stdout).toContain('VIA DO CLIENTE');
    expect(result.stdout).toMatch(/PARCELAS +3x R\$ 150,00/);
    expect(result.stdout).toContain('411111******1111');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(42);
  });

  it('writes the merchant copy as ESC/POS, HTML and PDF files with the store of the settings', async () => {
    await paid('pdv-11');
    const settings = settingsFile({ receipts: STORE });
    const escpos = join(home, 'r.bin');
    expect(
      (
        await pinbridge(
          'receipt',
          'show',
          'pdv-11',
          '--training',
          '--settings',
          settings,
          '--copy',
          'merchant',
          '--format',
          'escpos',
          '--out',
          escpos,
        )
      ).code,
    ).toBe(0);
    const paper = decodeEscPos(readFileSync(escpos), { codeTables: EPSON_CODE_TABLES }).lines.map((line) =>
      line.text.trim(),
    );
    expect(paper).toContain('PADARIA PÃO DOURADO LTDA');
    expect(paper).toContain('VIA DO ESTABELECIMENTO');

    const html = join(home, 'r.html');
    expect(
      (
        await pinbridge(
          'receipt',
          'show',
          'pdv-11',
          '--training',
          '--settings',
          settings,
          '--format',
          'html',
          '--out',
          html,
        )
      ).code,
    ).toBe(0);
    expect(readFileSync(html, 'utf8')).toMatch(/<html[^>]*lang="pt-BR"/);

    const pdf = join(home, 'r.pdf');
    expect(
      (
        await pinbridge(
          'receipt',
          'show',
          'pdv-11',
          '--training',
          '--settings',
          settings,
          '--format',
          'pdf',
          '--out',
          pdf,
        )
      ).code,
    ).toBe(0);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(readFileSync(pdf))), { mergePages: true });
    expect(text).toContain('PADARIA PÃO DOURADO LTDA');
  });

  it('shows the store of the settings with its alphanumeric CNPJ masked, CNPJ 12.ABC.345/01DE-35', async () => {
    await paid('pdv-13');
    const settings = settingsFile({
      receipts: { merchant: { name: 'MERCADINHO NOVA ERA LTDA', cnpj: '12ABC34501DE35' } },
    });
    const result = await pinbridge(
      'receipt',
      'show',
      'pdv-13',
      '--training',
      '--settings',
      settings,
      '--columns',
      '42',
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').map((line) => line.trim());
    expect(lines).toContain('MERCADINHO NOVA ERA LTDA');
    expect(lines).toContain('CNPJ 12.ABC.345/01DE-35');
  });

  it('refuses what it cannot do with exit code 2 and one sentence', async () => {
    await paid('pdv-12');
    const unknown = await pinbridge('receipt', 'show', 'nope', '--training');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No payment .* "nope"/);
    const binary = await pinbridge('receipt', 'show', 'pdv-12', '--training', '--format', 'pdf');
    expect(binary.code).toBe(2);
    expect(binary.stderr).toMatch(/--out/);
    expect((await pinbridge('receipt', 'show', 'pdv-12', '--training', '--columns', '40')).code).toBe(2);
    // Outside training mode a receipt needs the store's name and CNPJ.
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    const noStore = await pinbridge(
      'receipt',
      'show',
      'pdv-12',
      '--journal',
      join(home, '.pinbridge', 'training', 'journal.db'),
    );
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toBe(
      "pinbridge: a receipt outside training mode shows the store's name and CNPJ, and there is no settings file: set them in the window (Configurações) or as " +
        '"receipts": {"merchant": {"name": …, "cnpj": …}} in the settings; for a sale made in training mode, add --training\n',
    );
    // Without the live journal at all, the answer is --training.
    const noJournal = await pinbridge('receipt', 'show', 'pdv-12');
    expect(noJournal.code).toBe(2);
    expect(noJournal.stderr).toBe(
      `pinbridge: there is no journal at ${join(home, '.pinbridge', 'journal.db')}; name the file with --journal <path> (or --training for training mode's)\n`,
    );
    const badSettings = await pinbridge(
      'receipt',
      'show',
      'pdv-12',
      '--training',
      '--settings',
      settingsFile({ receipts: { merchant: { name: 'X', cnpj: '123' } } }),
    );
    expect(badSettings.code).toBe(2);
    expect(badSettings.stderr).toContain('receipts.merchant.cnpj');
    const wrongDigits = await pinbridge(
      'receipt',
      'show',
      'pdv-12',
      '--training',
      '--settings',
      settingsFile({ receipts: { merchant: { name: 'X', cnpj: '12ABC34501DE36' } } }),
    );
    expect(wrongDigits.code).toBe(2);
    expect(wrongDigits.stderr).toContain('receipts.merchant.cnpj: is not a valid CNPJ (check digits do not match)');
  });
});

describe('pinbridge receipt print', () => {
  it('prints both copies on a TCP receipt printer, and says so', async () => {
    await paid('pdv-20');
    sim = await PrinterSimulator.listen();
    const settings = settingsFile({
      receipts: STORE,
      printers: { default: { address: sim.address, model: 'epson-tm-t20iii', columns: 42 } },
    });
    const result = await pinbridge('receipt', 'print', 'pdv-20', '--training', '--settings', settings, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ printed: ['customer', 'merchant'], printer: sim.address });
    await sim.waitForPrinted(1);
    const decoded = decodeEscPos(await waitForCuts(sim, 2), { codeTables: EPSON_CODE_TABLES });
    const text = decoded.lines.map((line) => line.text).join('\n');
    expect(text).toMatch(/VIA DO CLIENTE[\s\S]*APROVADA[\s\S]*VIA DO ESTABELECIMENTO[\s\S]*APROVADA/);
  });

  it('keeps each copy as a PDF in a folder, for a headless store without an ESC/POS printer', async () => {
    await paid('pdv-23');
    const folder = join(home, 'receipts');
    const settings = settingsFile({
      receipts: STORE,
      printers: { pdfs: { address: `file://${folder}/`, format: 'pdf' } },
    });
    expect(
      (await pinbridge('receipt', 'print', 'pdv-23', '--training', '--settings', settings, '--printer', 'pdfs')).code,
    ).toBe(0);
    const files = readdirSync(folder).sort();
    expect(files).toHaveLength(2);
    expect(files.every((name) => name.endsWith('.pdf'))).toBe(true);
    const copies = await Promise.all(
      files.map(
        async (name) =>
          (
            await extractText(await getDocumentProxy(new Uint8Array(readFileSync(join(folder, name)))), {
              mergePages: true,
            })
          ).text,
      ),
    );
    expect(copies[0]).toContain('VIA DO CLIENTE');
    expect(copies[1]).toContain('VIA DO ESTABELECIMENTO');
  });

  it('reports a printer out of paper with exit code 1 and the reason, printing nothing', async () => {
    await paid('pdv-21');
    sim = await PrinterSimulator.listen();
    sim.set({ paperOut: true });
    const result = await pinbridge(
      'receipt',
      'print',
      'pdv-21',
      '--training',
      '--printer',
      sim.address,
      '--copy',
      'customer',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/out of paper/);
    expect(sim.printed.length).toBe(0);
  });

  it('refuses an unknown printer name and a bad address with exit code 2', async () => {
    await paid('pdv-22');
    const unnamed = await pinbridge('receipt', 'print', 'pdv-22', '--training', '--printer', 'balcao');
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/no printer "balcao"/);
    const bad = await pinbridge('receipt', 'print', 'pdv-22', '--training', '--printer', 'tcp://');
    expect(bad.code).toBe(2);
  });
});

/** The printer's bytes once they hold `count` cuts (the CLI returns when the bytes are sent). */
async function waitForCuts(printer: PrinterSimulator, count: number): Promise<Buffer> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const bytes = printer.printed;
    if (decodeEscPos(bytes, { codeTables: EPSON_CODE_TABLES }).events.filter((e) => e.kind === 'cut').length >= count)
      return bytes;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return printer.printed;
}
