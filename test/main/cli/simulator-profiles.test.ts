/**
 * `pinbridge simulator --profile <name>` and the `sim:<profile>` PINPAD address, run in-process
 * through `main()` (no built dist/ needed).
 */
import { describe, expect, it } from 'vitest';
import { simulatorProfileOf } from '../../../main/pinpad/connection.js';
import { runMain } from '../../helpers/cli.js';

describe('pinbridge simulator --profile', () => {
  it('lists the profiles in --help', async () => {
    const result = await runMain(['simulator', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--profile <name>');
    for (const name of ['training', 'strict', 'ppc930', 'legacy'])
      expect(result.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('exits 2 with a clear sentence for an unknown profile', async () => {
    const result = await runMain(['simulator', '--tcp', '127.0.0.1:0', '--profile', 'ppc999']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /there is no simulator profile named "ppc999"; known: training, strict, ppc930, legacy/,
    );
  });
});

describe('the sim:<profile> PINPAD address', () => {
  it('maps sim to training and sim:<profile> to that profile, and nothing else', () => {
    expect(simulatorProfileOf('sim')).toBe('training');
    expect(simulatorProfileOf(' SIM:Strict ')).toBe('strict');
    expect(simulatorProfileOf('sim:ppc930')).toBe('ppc930');
    expect(simulatorProfileOf('/dev/ttyACM0')).toBeUndefined();
    expect(() => simulatorProfileOf('sim:nope')).toThrow(expect.objectContaining({ code: 'INVALID_PORT' }) as Error);
  });

  it('identifies the strict and ppc930 simulators with pinpad info --port sim:<profile>', async () => {
    const strict = await runMain(['pinpad', 'info', '--port', 'sim:strict', '--json']);
    expect(strict.code).toBe(0);
    expect(JSON.parse(strict.stdout)).toMatchObject({ spec_version: '2.20' });
    const ppc = await runMain(['pinpad', 'info', '--port', 'sim:ppc930', '--json']);
    expect(ppc.code).toBe(0);
    expect(JSON.parse(ppc.stdout)).toMatchObject({
      manufacturer: 'GERTEC',
      model: 'PPC-930',
      memory: '192MB',
      spec_version: '2.12',
    });
  });

  it('exits 2 for sim:<unknown profile>', async () => {
    const result = await runMain(['pinpad', 'info', '--port', 'sim:nope', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'INVALID_PORT' } });
  });
});
