/**
 * `pinbridge start`: the agent as a user runs it (the built bin in a child process), in training
 * mode — embedded sandbox, simulated PINPAD whose customer presents a test card — with HOME in a
 * temp folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import { decodeEscPos } from '../../helpers/escpos-decode.js';
import { PrinterSimulator } from '../../helpers/printer-sim.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { run, serve, stopServers } from '../../helpers/cli.js';
import { openSocket, RpcClient } from '../pos/pos-rig.js';
import { logFilePath, operatorKeyPath } from '../../../main/paths.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'pinbridge-start-'));
});
let printer: PrinterSimulator | undefined;
afterEach(async () => {
  await stopServers();
  await printer?.close();
  printer = undefined;
  rmSync(home, { recursive: true, force: true });
});

describe('pinbridge start', () => {
  it('serves the POS API on loopback: a POS pairs with the code the terminal prints, then pays', async () => {
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home });
    const pos = agent.ready.pos as { ws: string; demo: string };
    expect(pos.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/pos$/);
    expect(pos.demo).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/$/);
    let stdout = '';
    agent.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const client = new RpcClient(await openSocket(pos.ws));
    const started = await client.call<{ pairing_id: string }>('session.pair', { name: 'Caixa do teste' });
    let announced: { pairing_id: string; code: string; expires_at: string } | undefined;
    for (let i = 0; i < 200 && announced === undefined; i++) {
      announced = stdout
        .split('\n')
        .filter((line) => line.includes('pairing_requested'))
        .map((line) => JSON.parse(line) as { pairing_id: string; code: string; expires_at: string })
        .find((line) => line.pairing_id === started.pairing_id);
      if (announced === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(agent.stderr()).toContain(`code ${announced!.code}`);
    // The person reads the store's clock (São Paulo, the tests' computer being on UTC); the JSON line keeps ISO.
    const storeClock = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Sao_Paulo',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(announced!.expires_at));
    expect(agent.stderr()).toContain(`type it in the POS before ${storeClock} (America/Sao_Paulo).`);
    expect(announced!.expires_at).toMatch(/Z$/);
    await client.call('session.confirmPairing', { pairing_id: started.pairing_id, code: announced!.code });
    const outcome = await client.call<{ status: string; amount: number }>('payment.start', {
      reference_id: 'start-pos-1',
      amount: 1500,
      payment_type: 'credit',
      installments: 1,
      description: 'Pelo POS',
    });
    expect(outcome).toMatchObject({ status: 'approved', amount: 1500 });
    // The demo page and the browser client are served beside it.
    const demo = await fetch(pos.demo);
    expect(demo.status).toBe(200);
    expect(demo.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const clientJs = await fetch(pos.demo.replace('/demo/', '/client/index.js'));
    expect(clientJs.status).toBe(200);
    await client.close();
    expect(await agent.stop()).toBe(0);
  });

  it('starts in training mode with a simulated PINPAD, says where its sandbox and journal are, and stops cleanly', async () => {
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home });
    expect(agent.ready).toMatchObject({
      status: 'ready',
      mode: 'training',
      pinpad: { manufacturer: 'PINBRIDGE SIM' },
      journal: join(home, '.pinbridge', 'training', 'journal.db'),
      recovered: { found: 0, settled: 0, pending: 0 },
      sandbox: {
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as unknown,
        token: expect.any(String) as unknown,
      },
    });
    expect(await agent.stop()).toBe(0);
    expect(agent.stderr()).toMatch(/"msg":"Pinbridge stopped"/);
  });

  it('runs a pending transaction a POS back end created for its PINPAD, by itself, and prints both copies of its receipt', async () => {
    printer = await PrinterSimulator.listen();
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({ pending_poll_ms: 200, printers: { default: { address: printer.address, columns: 42 } } }),
    );
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home });
    expect(agent.ready.printers).toEqual(['default']);
    const sandbox = agent.ready.sandbox as { url: string; marketplace_id: string; seller_id: string; token: string };
    const serial = (agent.ready.pinpad as { serial_number: string }).serial_number;
    const backEnd = new PaymentsClient({
      baseUrl: sandbox.url,
      token: sandbox.token,
      marketplaceId: sandbox.marketplace_id,
    });
    const created = await backEnd.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      on_behalf_of: sandbox.seller_id,
      description: 'Pedido 501',
      amount: 3590,
      terminal: serial,
      reference_id: 'pedido-501',
      notification: 'Pedido 501',
    });
    // The journal is read beside the running agent (WAL lets a reader in).
    const journal = Journal.open(join(home, '.pinbridge', 'training', 'journal.db'));
    try {
      await vi.waitFor(() => expect(journal.findByReference('pedido-501')?.state).toBe('confirmed'), {
        timeout: 25_000,
        interval: 250,
      });
      expect(journal.findByReference('pedido-501')).toMatchObject({
        source: 'remote',
        transactionId: created.id,
        amount: 3590,
      });
    } finally {
      journal.close();
    }
    expect((await backEnd.transactions.retrieve(created.id)).status).toBe('succeeded');
    // Training mode's store, marked TREINAMENTO, customer copy then merchant copy.
    await vi.waitFor(
      () => expect(decodeEscPos(printer!.printed).events.filter((event) => event.kind === 'cut')).toHaveLength(2),
      { timeout: 10_000, interval: 100 },
    );
    const paper = decodeEscPos(printer.printed)
      .lines.map((line) => line.text)
      .join('\n');
    expect(paper).toMatch(/TREINAMENTO[\s\S]*VIA DO CLIENTE[\s\S]*R\$ 35,90[\s\S]*VIA DO ESTABELECIMENTO/);
    expect(await agent.stop()).toBe(0);
    expect(agent.stderr()).toMatch(/"msg":"receipt printed"/);
    expect(agent.stderr()).toMatch(/"printer":"default".*"msg":"printer connected"/);
  }, 40_000);

  it('takes --config for the settings file and --training, and says where the POS connects in "ws"', async () => {
    const config = join(home, 'caixa.json');
    writeFileSync(
      config,
      JSON.stringify({ printers: { balcao: { address: `file://${home}/printed/`, format: 'escpos' } } }),
    );
    const agent = await serve(['start', '--headless', '--training', '--config', config, '--pos-port', '0'], {
      HOME: home,
    });
    expect(agent.ready).toMatchObject({ status: 'ready', mode: 'training', printers: ['balcao'] });
    expect(agent.ready.ws).toBe((agent.ready.pos as { ws: string }).ws);
    expect(agent.ready.ws).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/pos$/);
    expect(await agent.stop()).toBe(0);
  });

  it('restarts when the window asks, with the settings it saved, at the same address, and prints a new ready line', async () => {
    const config = join(home, 'caixa.json');
    writeFileSync(config, JSON.stringify({}));
    const agent = await serve(['start', '--config', config, '--pos-port', '0'], { HOME: home });
    // Training with no printer in the settings prints to its folder of PDFs, named default.
    expect(agent.ready).toMatchObject({ status: 'ready', printers: ['default'] });
    let stdout = '';
    agent.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const ws = agent.ready.ws as string;
    // The window: a program on this computer with the agent's key.
    const window = new RpcClient(await openSocket(ws));
    await window.call('session.operator', { key: readFileSync(operatorKeyPath(home), 'utf8').trim() });
    await window.call('operator.saveSettings', {
      settings: { printers: { balcao: { address: `file://${home}/printed/`, format: 'escpos' } } },
    });
    expect(await window.call('operator.restart')).toEqual({ restarting: true });
    expect((await window.closed).code).toBe(1001);

    await vi.waitFor(() => expect(stdout).toContain('"status":"ready"'), { timeout: 20_000 });
    const again = JSON.parse(stdout.split('\n').find((line) => line.includes('"status":"ready"'))!) as Record<
      string,
      unknown
    >;
    expect(again).toMatchObject({ status: 'ready', mode: 'training', printers: ['balcao'], ws });
    expect(agent.stderr()).toMatch(/"msg":"restarting with the saved settings"/);
    const reconnected = new RpcClient(await openSocket(ws));
    expect(await reconnected.call('agent.info')).toMatchObject({ mode: 'training' });
    await reconnected.close();
    expect(await agent.stop()).toBe(0);
  });

  it('prints its ready line when its PINPAD is not there, serves the window and the POS API, says why in both, and logs it once', async () => {
    const address = join(home, 'ttyACM9');
    const agent = await serve(['start', '--port', address, '--pos-port', '0'], { HOME: home });
    expect(agent.ready).toMatchObject({
      status: 'ready',
      mode: 'training',
      pinpad: {
        port: address,
        state: 'not_found',
        code: 'PORT_NOT_FOUND',
        message: `PINPAD not found at ${address}`,
        cashier_message: `PINPAD não encontrado em ${address}. Verifique o cabo e se ele está ligado.`,
      },
    });
    await vi.waitFor(() =>
      expect(agent.stderr()).toContain(
        `PINPAD not found at ${address}; Pinbridge keeps trying. Check it in the window: ${String(agent.ready.ui)}`,
      ),
    );

    // The window is served, and its status says where the PINPAD is looked for.
    const page = await fetch(String(agent.ready.ui));
    expect(page.status).toBe(200);
    const window = new RpcClient(await openSocket(String(agent.ready.ws)));
    await window.call('session.operator', { key: readFileSync(operatorKeyPath(home), 'utf8').trim() });
    expect(await window.call('agent.status')).toMatchObject({
      pinpads: [],
      pinpad_link: {
        address,
        state: 'not_found',
        code: 'PORT_NOT_FOUND',
        cashier_message: `PINPAD não encontrado em ${address}. Verifique o cabo e se ele está ligado.`,
      },
    });
    await window.close();
    expect(await agent.stop()).toBe(0);
    const logged = readFileSync(logFilePath(home), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"msg":"PINPAD not available'));
    expect(logged).toHaveLength(1);
  });

  it('prints its ready line when its PINPAD’s network address answers nothing, saying it is unreachable', async () => {
    // Nothing listens on the discard port.
    const agent = await serve(['start', '--port', 'tcp://127.0.0.1:9', '--pos-port', '0'], { HOME: home });
    expect(agent.ready).toMatchObject({
      status: 'ready',
      pinpad: {
        port: 'tcp://127.0.0.1:9',
        state: 'unreachable',
        code: 'CONNECTION_REFUSED',
        cashier_message: expect.stringContaining('PINPAD inacessível em tcp://127.0.0.1:9') as unknown,
      },
    });
    expect(await agent.stop()).toBe(0);
  });

  it('refuses --training together with a payments API, and --config naming another file than --settings (exit 2)', async () => {
    const both = await run([
      'start',
      '--training',
      '--api',
      'http://127.0.0.1:1',
      '--token',
      't',
      '--marketplace',
      'm',
      '--seller',
      's',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--training runs against the embedded sandbox');
    const two = await run(['start', '--config', join(home, 'a.json'), '--settings', join(home, 'b.json')]);
    expect(two.code).toBe(2);
    expect(two.stderr).toContain('--config and --settings name the same file');
  });

  it("refuses a simulated customer's pace that is not 0 to 60000 ms (exit 2): a longer timer would fire at once", async () => {
    for (const pace of ['abc', '-5', '1.5', '60001', '99999999999']) {
      const result = await run(['start', '--customer-delay', pace]);
      expect(result.code, pace).toBe(2);
      expect(result.stderr).toBe(`pinbridge: --customer-delay must be milliseconds from 0 to 60000, not "${pace}"\n`);
    }
  });

  it('refuses a bad settings file with exit code 2 and the field at fault', async () => {
    const settings = join(home, 'settings.json');
    writeFileSync(settings, JSON.stringify({ pending_poll_ms: -1 }));
    const result = await run(['start', '--settings', settings]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^pinbridge: Invalid settings in .*settings\.json: pending_poll_ms: /);
  });

  it('refuses a mistyped --port at once with one line, as the settings refuse it (exit 2)', async () => {
    for (const [address, why] of [
      ['pinpad da loja', 'not a serial port, a network or a Bluetooth address'],
      ['COM', 'a Windows serial port is COM and its number, e.g. COM3'],
      ['tcp://10.0.0.5', 'a network address needs a host and a port, e.g. tcp://10.0.0.5:4000'],
    ]) {
      const result = await run(['start', '--port', address!]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `pinbridge: --port: "${address}" is not a valid PINPAD address (${why}); use a serial device (/dev/ttyACM0, COM3), tcp://host:port (IPv6 as tcp://[::1]:4000) or ble:<device id>, or "sim" for the simulated PINPAD.\n`,
      );
    }
  });

  it('says in one line that another program holds its POS port, with the fix; a terminal (pretty) sees no log line before it, a program reading JSON sees JSON lines', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const sentence =
        `pinbridge: another Pinbridge (or another program) is already using port ${port} for the POS API: stop it, or give this one another port with --pos-port <port> ` +
        `(or the settings' pos.ports, the same the POS connects to); \`pinbridge doctor --pos-port ${port}\` tells whether it is a Pinbridge\n`;
      const pretty = await run(['start', '--training', '--pos-port', String(port)], 20_000, {
        HOME: home,
        PINBRIDGE_LOG_FORMAT: 'pretty',
        PINBRIDGE_LOG_LEVEL: '',
      });
      expect(pretty.code).toBe(1);
      expect(pretty.stderr).toBe(sentence);
      const json = await run(['start', '--training', '--pos-port', String(port)], 20_000, {
        HOME: home,
        PINBRIDGE_LOG_FORMAT: 'json',
      });
      expect(json.code).toBe(1);
      const lines = json.stderr.trimEnd().split('\n');
      expect(`${lines.pop()}\n`).toBe(sentence);
      expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain('Pinbridge starting');
      // Everything is in the log file either way.
      expect(readFileSync(logFilePath(home), 'utf8')).toContain('"msg":"Pinbridge starting"');
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });
});
