import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CORPUS_PANS, DIGITS_BY_NATURE, LEGITIMATE } from '../fixtures/card-data-corpus.js';
import { scanArtifacts, scanText } from './card-data-scan.js';

describe('the card-data scan of test logs and journals', () => {
  it('finds test card numbers, tracks and card-like numbers, naming only their first six characters', () => {
    const kinds = (text: string): string[] => scanText(text, []).map((f) => f.kind);
    expect(kinds('{"pan":"4111111111111111"}')).toEqual(['test card number']);
    expect(kinds('t2=4916338506082832=2512101')).toEqual(['track data', 'card-like number']);
    expect(kinds('%B4916338506082832^TESTE/VISA^2512')).toContain('track data');
    expect(kinds('card 4916338506082832.')).toEqual(['card-like number']);
    expect(scanText('4916338506082832', [])[0]?.hint).toBe('491633…');
  });

  it('finds a recorded secret whatever its letter case', () => {
    expect(scanText('{"block":"a1b2c3d4e5f60718"}', ['A1B2C3D4E5F60718']).map((f) => f.kind)).toEqual([
      'recorded secret',
    ]);
  });

  it('leaves masked PANs, hex ids, epoch milliseconds and CPFs alone', () => {
    const clean = [
      '{"masked_pan":"411111******1111","brand":"visa"}',
      '{"id":"5b1f0e9a4d7c3b2a1e0f9c8d7c9d2e4f"}',
      '{"time":1763700000000,"cpf":"52998224725"}',
      'reference sale-12-1763712345678',
    ].join('\n');
    expect(scanText(clean, [])).toEqual([]);
  });

  describe('over a folder', () => {
    let dir = '';
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('scans every file but the recorded secrets themselves', () => {
      dir = mkdtempSync(join(tmpdir(), 'scan-test-'));
      mkdirSync(join(dir, 'secrets'));
      mkdirSync(join(dir, 'engine-1'));
      writeFileSync(join(dir, 'secrets', '1.txt'), 'DEADBEEFCAFEF00D\n');
      writeFileSync(join(dir, 'engine-1', 'engine.log'), '{"msg":"sent","emv":"deadbeefcafef00d"}\n');
      writeFileSync(
        join(dir, 'engine-1', 'journal.db'),
        Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from('411111******1111')]),
      );
      const { files, findings } = scanArtifacts(dir);
      expect(files).toBe(2);
      expect(findings).toEqual([
        { file: join('engine-1', 'engine.log'), kind: 'recorded secret', offset: 21, hint: 'DEADBE…' },
      ]);
    });

    it('finds a corpus card number in any disguise: other digits, separators, JSON escapes, base64, hex', () => {
      dir = mkdtempSync(join(tmpdir(), 'scan-test-'));
      const pan = CORPUS_PANS.hipercard;
      const disguises = [
        pan.replace(/(\d{4})(?=\d)/g, '$1.'),
        JSON.stringify({ d: pan.replace(/(\d{4})(?=\d)/g, '$1\t') }),
        pan.replace(/[0-9]/g, (d) => String.fromCodePoint(0xff10 + Number(d))),
        pan.replace(/[0-9]/g, (d) => String.fromCodePoint(0x0660 + Number(d))),
        `x${Buffer.from(`  ${pan}`).toString('base64')}`,
        Buffer.from(pan).toString('hex').toUpperCase(),
      ];
      disguises.forEach((text, n) => writeFileSync(join(dir, `${n}.log`), `{"msg":"${text}"}\n`));
      const { findings } = scanArtifacts(dir);
      const corpus = findings.filter((finding) => finding.kind === 'corpus card number');
      expect(corpus.map((finding) => finding.file).sort()).toEqual(disguises.map((_, n) => `${n}.log`));
      expect(corpus.every((finding) => finding.hint.startsWith('606282…'))).toBe(true);
    });

    it('leaves the legitimate free-text corpus values alone, all in one file', () => {
      dir = mkdtempSync(join(tmpdir(), 'scan-test-'));
      // Digits by nature (a CNPJ, a client id of 16 digits) may be Luhn-valid runs that start like a
      // card: the scan's plainest net flags them, by design — the specs keep those out of the artifacts.
      const freeText = LEGITIMATE.filter((entry) => !DIGITS_BY_NATURE.includes(entry.field));
      writeFileSync(join(dir, 'legit.log'), freeText.map((entry) => JSON.stringify(entry)).join('\n'));
      expect(scanArtifacts(dir).findings).toEqual([]);
    });

    it("checks a journal's disk reserve for zeros only, and reports anything else in it", () => {
      dir = mkdtempSync(join(tmpdir(), 'scan-test-'));
      writeFileSync(join(dir, 'journal.db.reserve'), Buffer.alloc(1024 * 1024));
      expect(scanArtifacts(dir).findings).toEqual([]);
      const dirty = Buffer.alloc(4096);
      dirty.write('4111111111111111', 100, 'latin1');
      writeFileSync(join(dir, 'journal.db.reserve'), dirty);
      expect(scanArtifacts(dir).findings).toEqual([
        { file: 'journal.db.reserve', kind: 'data in a disk reserve', offset: 100, hint: 'not all zeros' },
      ]);
    });
  });
});
