/**
 * The `pinbridge` command as a technician uses it: the real bin script in a child process,
 * talking to a simulated PINPAD on a pseudo terminal and over TCP on 127.0.0.1. The commands'
 * help is read through the same `main()` in this process (the bin's own --help is run once):
 * a child process would only add its start-up, a quarter of a second of CPU each.
 * (`npm test` builds dist/ first; the bin runs from there.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { run, runMain, serve, stopServers } from '../../helpers/cli.js';

afterEach(stopServers);

describe('pinbridge --help', () => {
  it('is available from the bin', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pinbridge/);
  });

  it.each([
    [[]],
    [['start']],
    [['pinpad']],
    [['pinpad', 'list']],
    [['pinpad', 'info']],
    [['pinpad', 'display']],
    [['pinpad', 'cpf']],
    [['simulator']],
    [['sandbox']],
  ])('is available on %j', async (words) => {
    const result = await runMain([...words, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pinbridge/);
  });

  it('documents --port and --json on the PINPAD commands', async () => {
    const { stdout } = await runMain(['pinpad', 'info', '--help']);
    expect(stdout).toContain('--port <address>');
    expect(stdout).toContain('--json');
  });
});

describe('pinbridge exit codes and errors', () => {
  it('exits 2 with one line for bad usage', async () => {
    const result = await run(['pinpad', 'info', '--port', 'sim', '--colour']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^pinbridge: unknown option '--colour'/);
  });

  it('exits 2 for a text over 32 characters, before touching the PINPAD', async () => {
    const result = await run(['pinpad', 'display', '--port', '/dev/no-such-pinpad', 'x'.repeat(33), '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/at most 32 characters/);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('exits 2 for a port it cannot parse', async () => {
    const result = await run(['pinpad', 'info', '--port', 'usb-thing', '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'INVALID_PORT' } });
  });

  it('exits 1 when the PINPAD is not there', async () => {
    const result = await run(['pinpad', 'info', '--port', '/dev/no-such-pinpad', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'PORT_NOT_FOUND' } });
  });

  it('exits 1 when nothing answers on a TCP port', async () => {
    const result = await run(['pinpad', 'info', '--port', 'tcp://127.0.0.1:1', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'CONNECTION_REFUSED' } });
  });

  it('exits 2 when the simulator is given neither --pty nor --tcp', async () => {
    const result = await run(['simulator']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--pty or --tcp/);
  });
});

describe('pinbridge with the simulator', () => {
  it('identifies and drives a simulated PINPAD on a pseudo terminal', async () => {
    const sim = await serve(['simulator', '--pty', '--serial', 'PTYCLI01']);
    const path = String(sim.ready.path);
    expect(path).toMatch(/^\/dev\/pts\/\d+$/);

    const info = await run(['pinpad', 'info', '--port', path, '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      manufacturer: 'PINBRIDGE SIM',
      spec_version: '2.20',
      serial_number: 'PTYCLI01',
      model: 'PBSIM-1',
      memory: '64MB',
      firmware: expect.any(String) as unknown,
    });

    const shown = await run(['pinpad', 'display', '--port', path, 'Bem-vindo!\\nPINBRIDGE']);
    expect(shown.code).toBe(0);
    expect(sim.stderr()).toMatch(/PINPAD \| Bem-vindo! +\| PINBRIDGE +\|/);

    expect(await sim.stop()).toBe(0);
  });

  it('reads a CPF typed on the keypad of a simulated PINPAD over TCP', async () => {
    const sim = await serve(['simulator', '--tcp', '127.0.0.1:0', '--auto', '--cpf', '52998224725']);
    expect(sim.ready).toMatchObject({ host: '127.0.0.1', port: expect.any(Number) as unknown });
    const result = await run(['pinpad', 'cpf', '--port', `tcp://127.0.0.1:${String(sim.ready.port)}`, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ cpf: '52998224725', valid: true });
  });

  it('takes keypad input from the simulator console', async () => {
    const sim = await serve(['simulator', '--tcp', '127.0.0.1:0']);
    const cpf = run(['pinpad', 'cpf', '--port', `tcp://127.0.0.1:${String(sim.ready.port)}`]);
    await new Promise<void>((resolve) => {
      const check = (): void => (/DIGITE O CPF/.test(sim.stderr()) ? resolve() : void setTimeout(check, 20));
      check();
    });
    sim.child.stdin.write('12345678900\nenter\n');
    const result = await cpf;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/CPF 123\.456\.789-00 \(the check digits do not match/);
  });

  it('uses the in-process simulator with --port sim', async () => {
    const result = await run(['pinpad', 'info', '--port', 'sim']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Manufacturer +PINBRIDGE SIM/);
  });
});

describe('pinbridge pinpad list', () => {
  it('lists serial ports and the network PINPADs it is given', async () => {
    const result = await run(['pinpad', 'list', '--tcp', '127.0.0.1:4000', '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows).toContainEqual(expect.objectContaining({ port: 'tcp://127.0.0.1:4000', transport: 'tcp' }));
  });

  // This machine has no Bluetooth adapter: noble's native binding loads (its prebuilt binary is in
  // the npm package) and the adapter reports itself unsupported.
  it('says clearly when Bluetooth LE cannot be used for a scan', async () => {
    const result = await run(['pinpad', 'list', '--ble', '1', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'BLE_UNAVAILABLE' } });
  });

  it('prints one line, and exits, when `--ble` finds no usable adapter', async () => {
    const result = await run(['pinpad', 'list', '--ble']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^pinbridge: Bluetooth LE is not available/);
    expect(result.stderr).not.toMatch(/noble warning|at .*\.js:\d+/);
  });
});
