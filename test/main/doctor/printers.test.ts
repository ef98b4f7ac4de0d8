/**
 * The printers check against simulated ESC/POS printers on real TCP ports and on a socat pty
 * (test/helpers/printer-sim.ts): the printer is reached, its DLE EOT status read, and nothing is
 * printed.
 */
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPtyPair } from '../../../drivers/simulator/index.js';
import { checkPrinters } from '../../../main/doctor/printers.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';

const SETTINGS = '/store/settings.json';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function printer(): Promise<PrinterSimulator> {
  const sim = await PrinterSimulator.listen();
  cleanups.push(() => sim.close());
  return sim;
}

async function closedTcpPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('the printers check', () => {
  it('reaches a ready printer, reads its status and prints nothing', async () => {
    const sim = await printer();
    const result = await checkPrinters({
      printers: { default: { address: sim.address } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result).toMatchObject({ id: 'printers', status: 'ok' });
    expect(result.summary).toBe(`Printer: "default" (${sim.address}) ready`);
    expect(result.pt).toEqual({ summary: `Impressora: padrão (${sim.address}) pronta` });
    expect(result.details.printers).toEqual([
      expect.objectContaining({
        name: 'default',
        status: 'ok',
        printer_status: { online: true, paper_out: false, paper_near_end: false, cover_open: false, error: null },
      }),
    ]);
    expect(sim.requests).toEqual([1, 2, 3, 4]);
    expect(sim.printed.length).toBe(0);
  });

  it('fails on a printer out of paper, telling to load a roll', async () => {
    const sim = await printer();
    sim.set({ paperOut: true });
    const result = await checkPrinters({
      printers: { default: { address: sim.address } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('out of paper');
    expect(result.fix).toContain('Load a new paper roll');
    expect(result.pt).toEqual({
      summary: `Impressora: padrão (${sim.address}) sem papel`,
      fix: `Coloque uma bobina de papel nova na impressora "default" (${sim.address}).`,
    });
  });

  it('fails on an open cover', async () => {
    const sim = await printer();
    sim.set({ coverOpen: true });
    const result = await checkPrinters({
      printers: { balcao: { address: sim.address } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('"balcao"');
    expect(result.summary).toContain('cover open');
    expect(result.fix).toContain('Close the cover of printer "balcao"');
    expect(result.pt.fix).toBe(`Feche a tampa da impressora "balcao" (${sim.address}).`);
  });

  it('warns when the paper is near its end', async () => {
    const sim = await printer();
    sim.set({ paperNearEnd: true });
    const result = await checkPrinters({
      printers: { default: { address: sim.address } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('warn');
    expect(result.fix).toContain('new paper roll ready');
  });

  it('warns when the printer is reached but does not answer the status request, offering check_status: false', async () => {
    const sim = await printer();
    sim.answering = false;
    const result = await checkPrinters({
      printers: { default: { address: sim.address } },
      settingsPath: SETTINGS,
      timeoutMs: 300,
    });
    expect(result.status).toBe('warn');
    expect(result.summary).toContain('did not answer the status request');
    expect(result.fix).toContain('"check_status": false');
    expect(result.fix).toContain(SETTINGS);
    expect(result.pt).toEqual({
      summary: `Impressora: padrão (${sim.address}) acessível, mas não respondeu ao pedido de situação em 300 ms`,
      fix: `Se a impressora "default" imprime mas não informa a situação, coloque \`"check_status": false\` em \`printers.default\` no arquivo ${SETTINGS}; caso contrário, desligue e ligue a impressora.`,
    });
  });

  it('fails on an unreachable printer, naming its address and how to fix it', async () => {
    const port = await closedTcpPort();
    const address = `tcp://127.0.0.1:${port}`;
    const result = await checkPrinters({ printers: { default: { address } }, settingsPath: SETTINGS, timeoutMs: 2000 });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain(`"default" (${address}) unreachable`);
    expect(result.fix).toContain('`ping 127.0.0.1`');
    expect(result.fix).toContain(`\`printers.default.address\` in ${SETTINGS}`);
    expect(result.pt.summary).toContain(
      `padrão (${address}) sem comunicação (a impressora não atende nesse endereço: veja se está ligada e conectada)`,
    );
    expect(result.pt.fix).toBe(
      `Verifique se a impressora está ligada e na rede (\`ping 127.0.0.1\`; a página de autoteste dela mostra o endereço IP) ou corrija \`printers.default.address\` em ${SETTINGS}.`,
    );
    expect(result.details.printers).toEqual([
      expect.objectContaining({ error: expect.objectContaining({ code: 'UNREACHABLE' }) as unknown }),
    ]);
  });

  it('checks every printer: one down makes the check fail, the other is still reported', async () => {
    const sim = await printer();
    const port = await closedTcpPort();
    const result = await checkPrinters({
      printers: { default: { address: sim.address }, cozinha: { address: `tcp://127.0.0.1:${port}` } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('fail');
    expect(result.details.printers).toEqual([
      expect.objectContaining({ name: 'default', status: 'ok' }),
      expect.objectContaining({ name: 'cozinha', status: 'fail' }),
    ]);
    // Each printer in the summary, in both languages; the fix is the failing one's.
    expect(result.summary).toContain(
      `Printers: "default" (${sim.address}) ready; "cozinha" (tcp://127.0.0.1:${port}) unreachable (`,
    );
    expect(result.pt.summary).toContain(
      `Impressoras: padrão (${sim.address}) pronta; "cozinha" (tcp://127.0.0.1:${port}) sem comunicação (`,
    );
    expect(result.pt.fix).toContain('`printers.cozinha.address`');
  });

  it('reads a serial printer on a pseudo terminal', async () => {
    const pair = await createPtyPair();
    cleanups.push(() => pair.close());
    const sim = await PrinterSimulator.onPty(pair.a);
    cleanups.push(() => sim.close());
    sim.set({ coverOpen: true });
    const result = await checkPrinters({
      printers: { default: { address: `serial://${pair.b}?baud=9600` } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('cover open');
  });

  it('does not ask a printer whose status checks are off, nor a folder', async () => {
    const sim = await printer();
    const folder = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-receipts-'));
    const result = await checkPrinters({
      printers: { default: { address: sim.address, check_status: false }, arquivo: { address: `file://${folder}/` } },
      settingsPath: SETTINGS,
      timeoutMs: 2000,
    });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain('status not checked: check_status is off');
    expect(result.summary).toContain('status not checked: this link cannot report it');
    expect(result.pt.summary).toBe(
      `Impressoras: padrão (${sim.address}) acessível (situação não verificada: check_status está desligado); "arquivo" (file://${folder}/) acessível (situação não verificada: esta conexão não a informa)`,
    );
    expect(sim.requests).toEqual([]);
  });

  it('is skipped without printers, and when the settings did not load', async () => {
    expect(await checkPrinters({ printers: {}, settingsPath: SETTINGS, timeoutMs: 2000 })).toMatchObject({
      status: 'skip',
    });
    const unloaded = await checkPrinters({ printers: undefined, settingsPath: SETTINGS, timeoutMs: 2000 });
    expect(unloaded).toMatchObject({
      status: 'skip',
      summary: expect.stringContaining('settings file did not load') as unknown,
    });
    expect(unloaded.pt).toEqual({
      summary:
        'Não verificadas: o arquivo de configurações não carregou (veja a verificação do arquivo de configurações)',
    });
  });
});
