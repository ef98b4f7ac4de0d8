/**
 * The support bundle's builder: a .tar.gz that the system's tar reads back, whose manifest names
 * each file with its size and SHA-256; CPFs and card numbers masked; secrets of the settings
 * replaced; and no bundle at all when the scanner still finds card data after the masking.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildBundle, SupportBundleError, type Manifest } from '../../../main/support/bundle.js';
import { maskCpfs, maskSupportText } from '../../../main/support/mask.js';
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
