/**
 * The support bundle's builder: a .tar.gz that the system's tar reads back, whose manifest names
 * each file with its size and SHA-256; CPFs and card numbers masked; secrets of the settings
 * replaced; and no bundle at all when the scanner still finds card data after the masking — in a
 * trace, also in its packets read back from their hex.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildBundle, SupportBundleError, type Manifest } from '../../../main/support/bundle.js';
import { maskCpfs, maskSupportFile, maskSupportText } from '../../../main/support/mask.js';
import { redactSettings } from '../../../main/support/redact-settings.js';
import { extractTarGz } from '../../helpers/tar-extract.js';
import { thrown } from '../../helpers/thrown.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe('buildBundle', () => {
  it('archives every file with a manifest of names, sizes and SHA-256s that the system tar reads back', () => {
    const { archive, manifest } = buildBundle(
      [
        { name: 'doctor.json', text: '{"ok":true}\n' },
        { name: 'logs/pinbridge.log', text: 'a'.repeat(1500) },
      ],
      { now: new Date('2026-11-29T08:00:00Z') },
    );
    const { names, files } = extractTarGz(archive);
    expect(names).toEqual(['manifest.json', 'doctor.json', 'logs/pinbridge.log']);
    const read = JSON.parse(files.get('manifest.json')!.toString()) as Manifest;
    expect(read).toEqual(manifest);
    expect(read.created_at).toBe('2026-11-29T08:00:00.000Z');
    for (const entry of read.files) {
      const bytes = files.get(entry.name)!;
      expect(bytes.length).toBe(entry.size);
      expect(sha256(bytes)).toBe(entry.sha256);
    }
    expect(files.get('logs/pinbridge.log')!.toString()).toBe('a'.repeat(1500));
  });

  it('masks card numbers and CPFs before writing', () => {
    const { archive } = buildBundle([
      { name: 'logs/pinbridge.log', text: '{"msg":"card 5555555555554444 for 123.456.789-09 and 98765432100"}\n' },
    ]);
    const log = extractTarGz(archive).files.get('logs/pinbridge.log')!.toString();
    expect(log).toContain('555555******4444');
    expect(log).toContain('123.***.***-**');
    expect(log).toContain('987********');
    expect(log).not.toMatch(/5555555555554444|456\.789|65432100/);
  });

  it('refuses a bundle in which the scanner still finds card data, naming the file and not the data', () => {
    const error = thrown(() =>
      buildBundle([{ name: 'logs/old.log', text: 'pan 4111111111111111' }], { mask: (text) => text }),
    );
    expect(error).toBeInstanceOf(SupportBundleError);
    expect((error as SupportBundleError).code).toBe('BUNDLE_HAS_CARD_DATA');
    expect((error as Error).message).toContain('logs/old.log');
    expect((error as Error).message).not.toContain('4111111111111111');
  });

  it('refuses track data the masking let through', () => {
    const error = thrown(() =>
      buildBundle([{ name: 'pinpad-trace/t.jsonl', text: ';5555555555554444=30121010000000000000?' }], {
        mask: maskCpfs,
      }),
    );
    expect((error as SupportBundleError).code).toBe('BUNDLE_HAS_CARD_DATA');
  });
});

describe("a trace's packets", () => {
  /** One trace line of a packet whose data is `ascii`, as the hex the trace keeps. */
  const packetLine = (id: string, ascii: string): string =>
    `${JSON.stringify({ t: 1, dir: 'pinpad', kind: 'packet', id, status: '000', length: ascii.length, data: Buffer.from(ascii, 'latin1').toString('hex') })}\n`;
  const header = `${JSON.stringify({ format: 'pinbridge-abecs-trace', version: 1, address: 'sim', started: '2026-11-29T09:00:00.000Z' })}\n`;
  const trace = (...lines: string[]): { name: string; text: string } => ({
    name: 'pinpad-trace/pinpad-1.trace.jsonl',
    text: header + lines.join(''),
  });

  it('lose a card number the masking finds in their hex', () => {
    const { archive } = buildBundle([trace(packetLine('GIX', 'GIX0004111111111111111'))]);
    const kept = extractTarGz(archive).files.get('pinpad-trace/pinpad-1.trace.jsonl')!.toString();
    expect(kept).toContain('"data":"[card data removed]"');
    expect(kept).not.toContain(Buffer.from('4111111111111111').toString('hex'));
  });

  it('are read back from their hex by the scanner: a test card or a track the masking missed stops the bundle, whatever the packet', () => {
    for (const secret of ['4111111111111111', ';5234567890123453=30121010000?']) {
      const error = thrown(() => buildBundle([trace(packetLine('GIX', `GIX000${secret}`))], { mask: (text) => text }));
      expect((error as SupportBundleError).code, secret).toBe('BUNDLE_HAS_CARD_DATA');
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('hold a card-like number as a card in a card command only: elsewhere it is a serial number', () => {
    const cardLike = '5234567890123453';
    const unmasked = { mask: (text: string) => text };
    const inCardRead = thrown(() => buildBundle([trace(packetLine('GCX', `GCX000 ${cardLike}`))], unmasked));
    expect((inCardRead as SupportBundleError).code).toBe('BUNDLE_HAS_CARD_DATA');
    const { archive } = buildBundle([trace(packetLine('GIX', `GIX000 ${cardLike}`))], unmasked);
    expect(extractTarGz(archive).names).toContain('pinpad-trace/pinpad-1.trace.jsonl');
  });
});

describe('maskSupportText', () => {
  it('keeps the first 3 digits of a CPF, formatted or not, and leaves shorter and longer numbers alone', () => {
    expect(maskSupportText('cpf 123.456.789-09')).toBe('cpf 123.***.***-**');
    expect(maskSupportText('cpf=12345678909;')).toBe('cpf=123********;');
    expect(maskSupportText('order 1234567890 ts 1732867200123')).toBe('order 1234567890 ts 1732867200123');
  });

  it('leaves 11 digits in a row whose check digits make no CPF (free bytes on a disk) as they are', () => {
    expect(maskSupportText('{"free_bytes":12345678901}')).toBe('{"free_bytes":12345678901}');
  });
});

describe('maskSupportFile', () => {
  // 6186640005584 (13 digits: 6 TB free) passes the Luhn check, as 1 in 10 numbers of its length do.
  const luhnValid = 6186640005584;

  it('keeps a JSON file JSON: a number the masking changes becomes its masked text as a string', () => {
    const doctor = `${JSON.stringify({ checks: [{ id: 'disk', details: { free_bytes: luhnValid, total: 100 } }] }, null, 2)}\n`;
    expect(maskSupportText(doctor)).toContain('"free_bytes": 618664***5584,'); // the raw text: no JSON any more
    const masked = maskSupportFile(doctor, 'doctor.json');
    expect(JSON.parse(masked)).toEqual({
      checks: [{ id: 'disk', details: { free_bytes: '618664***5584', total: 100 } }],
    });
    expect(masked.endsWith('}\n')).toBe(true);
  });

  it('masks the strings of a JSON file (CPFs, card numbers) and leaves the other values as they are', () => {
    const settings = JSON.stringify({ note: 'cpf 123.456.789-09 card 4111111111111111', port: 8787, on: true });
    expect(JSON.parse(maskSupportFile(settings, 'settings.json'))).toEqual({
      note: 'cpf 123.***.***-** card 411111******1111',
      port: 8787,
      on: true,
    });
  });

  it('keeps each JSON line of a log a JSON line, and masks any other line as text', () => {
    const log = [
      JSON.stringify({ level: 40, msg: 'disk', free: luhnValid }),
      'plain cpf=12345678909',
      '{ not json 4111111111111111',
      '',
    ].join('\n');
    const lines = maskSupportFile(log, 'logs/pinbridge.log').split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ level: 40, msg: 'disk', free: '618664***5584' });
    expect(lines.slice(1)).toEqual(['plain cpf=123********', '{ not json 411111******1111', '']);
  });

  it('masks a .json file that does not parse as text', () => {
    expect(maskSupportFile('{"cpf": "123.456.789-09"', 'broken.json')).toBe('{"cpf": "123.***.***-**"');
  });
});

describe('redactSettings', () => {
  it('replaces tokens, passwords, keys and header values by (set) / (not set), keeping switches and addresses', () => {
    const redacted = redactSettings({
      api: {
        base_url: 'https://api.example',
        client_certificate: { cert: '/c.pem', key: '/k.pem', passphrase: '' },
        capabilities: { idempotency_key: true },
      },
      telemetry: { bearer_token: 'tok-123456', headers: { 'X-Api-Key': 'abc', 'X-Empty': '' } },
      pos: { tls: { cert_file: '/p.pem', key_file: '/p.key' } },
      password: null,
    });
    expect(redacted).toEqual({
      api: {
        base_url: 'https://api.example',
        client_certificate: { cert: '/c.pem', key: '(set)', passphrase: '(not set)' },
        capabilities: { idempotency_key: true },
      },
      telemetry: { bearer_token: '(set)', headers: { 'X-Api-Key': '(set)', 'X-Empty': '(not set)' } },
      pos: { tls: { cert_file: '/p.pem', key_file: '(set)' } },
      password: '(not set)',
    });
  });
});
