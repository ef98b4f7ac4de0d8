/**
 * The settings check loads real files from a temp dir the way `pinbridge start` loads them; a bad
 * one fails with the file and the field.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSettings } from '../../../main/doctor/settings.js';

function settingsFile(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-settings-'));
  const path = join(dir, 'settings.json');
  writeFileSync(path, content);
  return path;
}

describe('the settings check', () => {
  it('is ok for a valid file and returns what it loaded', () => {
    const path = settingsFile(
      JSON.stringify({ printers: { default: { address: 'tcp://192.168.0.50:9100' } }, pos: { ports: [18001] } }),
    );
    const { result, settings } = checkSettings({ settingsPath: path });
    expect(result).toMatchObject({
      id: 'settings',
      status: 'ok',
      details: { path, printers: ['default'], pos_ports: [18001] },
    });
    expect(result.summary).toContain(`Settings loaded from ${path}`);
    expect(result.pt).toEqual({
      summary: `Configurações carregadas de ${path} (1 impressora(s), comprovantes sem o nome e o CNPJ da loja)`,
    });
    expect(settings?.printers.default?.address).toBe('tcp://192.168.0.50:9100');
  });

  it('is ok for a store with an alphanumeric CNPJ, and fails naming the field when its check digits do not match', () => {
    const good = checkSettings({
      settingsPath: settingsFile(
        JSON.stringify({ receipts: { merchant: { name: 'Mercadinho Nova Era', cnpj: '12ABC34501DE35' } } }),
      ),
    });
    expect(good.result.status).toBe('ok');
    expect(good.result.pt.summary).toContain('comprovantes com o nome e o CNPJ da loja');
    expect(good.settings?.receipts?.merchant.cnpj).toBe('12ABC34501DE35');
    const bad = checkSettings({
      settingsPath: settingsFile(
        JSON.stringify({ receipts: { merchant: { name: 'Mercadinho Nova Era', cnpj: '12ABC34501DE36' } } }),
      ),
    });
    expect(bad.result.status).toBe('fail');
    expect(bad.result.details.violations).toEqual([
      {
        field: 'receipts.merchant.cnpj',
        code: 'INVALID_CNPJ_CHECK_DIGITS',
        message: 'is not a valid CNPJ (check digits do not match)',
      },
    ]);
    expect(bad.result.pt.fix).toContain(
      '`receipts.merchant.cnpj` (Os dígitos verificadores não conferem: confira o CNPJ.)',
    );
    expect(bad.result.fix).toContain('`receipts.merchant.cnpj` (is not a valid CNPJ (check digits do not match))');
  });

  it('fails on a mistyped PINPAD address, with the sentence `--port` gives, the code, and where to correct it', () => {
    const path = settingsFile(JSON.stringify({ pinpad: { address: 'tcp://10.0.0.5' } }));
    const { result, settings } = checkSettings({ settingsPath: path });
    expect(settings).toBeUndefined();
    expect(result.status).toBe('fail');
    const message =
      '"tcp://10.0.0.5" is not a valid PINPAD address (a network address needs a host and a port, e.g. tcp://10.0.0.5:4000); use a serial device (/dev/ttyACM0, COM3), tcp://host:port (IPv6 as tcp://[::1]:4000) or ble:<device id>, or "sim" for the simulated PINPAD.';
    expect(result.details.violations).toEqual([{ field: 'pinpad.address', code: 'INVALID_PINPAD_ADDRESS', message }]);
    expect(result.summary).toBe(`The settings file ${path} is invalid: pinpad.address: ${message}`);
    expect(result.fix).toBe(
      `Edit ${path} and correct \`pinpad.address\` (${message}) (the PINPAD address is also set in the window: Configurações → PINPAD; \`pinbridge pinpad list\` shows the serial ports present); then run \`pinbridge doctor --settings ${path}\` again.`,
    );
    expect(result.pt.summary).toBe(
      `O arquivo de configurações ${path} é inválido: pinpad.address: O endereço do PINPAD “tcp://10.0.0.5” não é válido (um endereço de rede precisa do host e da porta, por exemplo tcp://10.0.0.5:4000). Use uma porta serial (/dev/ttyACM0, COM3), tcp://host:porta, ble:<id> ou sim.`,
    );
  });

  it('is ok without a settings file in the home folder: the defaults apply', () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-home-'));
    const { result, path } = checkSettings({ home });
    expect(result.status).toBe('ok');
    expect(path).toBe(join(home, '.pinbridge', 'settings.json'));
    expect(result.summary).toContain('the defaults apply');
    expect(result.pt).toEqual({ summary: `Nenhum arquivo de configurações (${path}): valem as configurações padrão` });
  });

  it('fails on a bad field, naming the field in the summary and the fix', () => {
    const path = settingsFile(
      JSON.stringify({ printers: { default: { address: 'ftp://printer' } }, confirmation: 'sometimes' }),
    );
    const { result, settings } = checkSettings({ settingsPath: path });
    expect(settings).toBeUndefined();
    expect(result.status).toBe('fail');
    expect(result.summary).toContain(`The settings file ${path} is invalid`);
    expect(result.summary).toContain('printers.default.address');
    expect(result.fix).toContain(`Edit ${path}`);
    expect(result.fix).toContain('`printers.default.address`');
    expect(result.details.violations).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'printers.default.address' })]),
    );
    // In Portuguese around the same fields and command, each rule in its Portuguese sentence (by its code).
    const violations = result.details.violations as { field: string; code: string; message: string }[];
    expect(violations.map((v) => v.field)).toEqual(['printers.default.address', 'confirmation']);
    expect(violations.map((v) => v.code)).toEqual(['INVALID_PRINTER_ADDRESS', 'INVALID_CHOICE']);
    const printerPt =
      'Endereço de impressora inválido: use tcp://IP:9100, serial:///dev/ttyUSB0, file:///dev/usb/lp0 ou lp://NOME.';
    expect(result.pt.summary).toBe(
      `O arquivo de configurações ${path} é inválido: printers.default.address: ${printerPt}; confirmation: Escolha uma das opções.`,
    );
    expect(result.pt.fix).toBe(
      `Edite ${path} e corrija \`printers.default.address\` (${printerPt}), \`confirmation\` (Escolha uma das opções.); depois execute \`pinbridge doctor --settings ${path}\` de novo.`,
    );
  });

  it('fails on a file that is not JSON', () => {
    const home = mkdtempSync(join(tmpdir(), 'pinbridge-doctor-home-'));
    mkdirSync(join(home, '.pinbridge'));
    writeFileSync(join(home, '.pinbridge', 'settings.json'), '{ "confirmation": ');
    const { result } = checkSettings({ home });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('(file): is not valid JSON');
    expect(result.fix).toContain('correct the file');
    expect(result.fix).toContain('`pinbridge doctor`');
    expect(result.pt.fix).toMatch(
      /: O arquivo de configurações está corrompido ou fora do formato\. Chame o suporte técnico; corrija o arquivo e depois execute `pinbridge doctor` de novo\.$/,
    );
  });

  it('fails when the file given with --settings does not exist', () => {
    const { result } = checkSettings({ settingsPath: '/nonexistent/pinbridge/settings.json' });
    expect(result.status).toBe('fail');
    expect(result.fix).toContain('--settings /nonexistent/pinbridge/settings.json');
  });
});
