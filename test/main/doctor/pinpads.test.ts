/**
 * The pinpads check against real links: the simulated PINPAD behind a socat pseudo terminal and
 * behind TCP, a pseudo terminal nobody answers on, a port held by another program, a TCP port
 * nobody listens on. The serial port list is injected (this machine has no USB PINPAD).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  PinpadSimulator,
  createPtyPair,
  startPtySimulator,
  startTcpSimulator,
  type PtyPair,
} from '../../../drivers/simulator/index.js';
import type { PortInfo } from '../../../drivers/transports/discovery.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { checkPinpads } from '../../../main/doctor/pinpads.js';
import type { EmvTablesDocument } from '../../../main/contract/index.js';
import { parseEmvTables } from '../../../main/pinpad/emv-tables.js';
import { TEST_EMV_TABLES } from '../../../main/sandbox/payments/test-emv-tables.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const noPorts = (): Promise<PortInfo[]> => Promise.resolve([]);

async function closedTcpPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function silentPty(): Promise<PtyPair> {
  const pair = await createPtyPair();
  cleanups.push(() => pair.close());
  return pair;
}

describe('the pinpads check', () => {
  it('opens the PINPAD on a serial port and reports its model and serial number', async () => {
    const pty = await startPtySimulator(new PinpadSimulator({ serialNumber: 'PB0000012345' }));
    cleanups.push(() => pty.close());
    const result = await checkPinpads({ address: pty.path, timeoutMs: 5000, listPorts: noPorts });
    expect(result).toMatchObject({
      id: 'pinpads',
      status: 'ok',
      details: {
        address: pty.path,
        transport: 'serial',
        pinpad: { manufacturer: 'PINBRIDGE SIM', serial_number: 'PB0000012345' },
      },
    });
    expect(result.summary).toContain(`The PINPAD on ${pty.path} answered: PINBRIDGE SIM`);
    expect(result.summary).toContain('serial number PB0000012345');
    expect(result.fix).toBeUndefined();
    expect(result.pt.summary).toMatch(
      new RegExp(`^O PINPAD em ${pty.path} respondeu: PINBRIDGE SIM .*, número de série PB0000012345, firmware `),
    );
    expect(result.pt.fix).toBeUndefined();
  });

  it('opens a network PINPAD', async () => {
    const tcp = await startTcpSimulator(new PinpadSimulator());
    cleanups.push(() => tcp.close());
    const result = await checkPinpads({ address: tcp.address, timeoutMs: 5000, listPorts: noPorts });
    expect(result).toMatchObject({
      status: 'ok',
      details: { transport: 'tcp', pinpad: { serial_number: 'SIM0000000000001' } },
    });
  });

  it('says where a Pix QR shows: on a graphic PINPAD, on it; on a text-only one, in the window', async () => {
    const graphic = await checkPinpads({ address: 'sim:ppc930', timeoutMs: 5000, listPorts: noPorts });
    expect(graphic.summary).toContain('; graphic display 240 × 320 (PNG, JPG): a Pix QR shows on it');
    expect(graphic.pt.summary).toContain('; tela gráfica 240 × 320 (PNG, JPG): o QR do Pix aparece nela');
    expect(graphic.details.pinpad).toMatchObject({
      graphic_display: { width: 240, height: 320, formats: ['png', 'jpg'] },
    });
    const text = await checkPinpads({ address: 'sim', timeoutMs: 5000, listPorts: noPorts });
    expect(text.summary).toContain('; text-only display: a Pix QR shows in the window');
    expect(text.pt.summary).toContain('; tela só de texto: o QR do Pix aparece na janela');
    expect(text.details.pinpad).toMatchObject({ graphic_display: null });
  });

  it('opens the in-process simulator ("sim")', async () => {
    const result = await checkPinpads({ address: 'sim', timeoutMs: 5000, listPorts: noPorts });
    expect(result).toMatchObject({ status: 'ok', details: { transport: 'simulator' } });
  });

  it('fails a legacy (BibComp 1.08) PINPAD where the provider is on terminal channel v2: it cannot encrypt card data', async () => {
    const result = await checkPinpads({ address: 'sim:legacy', timeoutMs: 5000, listPorts: noPorts });
    expect(result).toMatchObject({ status: 'fail', details: { pinpad: { protocol: 'legacy' } } });
    expect(result.summary).toMatch(
      /legacy \(BibComp 1\.08\) PINPAD, which cannot encrypt card data, so no sale can run on it/,
    );
    expect(result.fix).toContain('ABECS 2.x PINPAD');
    expect(result.pt.summary).toContain('não criptografa os dados do cartão');
    // A provider still on v1 takes its reads.
    expect(
      (await checkPinpads({ address: 'sim:legacy', timeoutMs: 5000, listPorts: noPorts, terminalChannel: 1 })).status,
    ).toBe('ok');
  });

  it('fails when the PINPAD does not answer within the time limit, with a fix naming the port', async () => {
    const pair = await silentPty();
    const result = await checkPinpads({ address: pair.b, timeoutMs: 400, listPorts: noPorts });
    expect(result.status).toBe('fail');
    expect(result.summary).toBe(`The PINPAD on ${pair.b} did not answer within 400 ms`);
    expect(result.details.error).toMatchObject({ code: 'TIMEOUT' });
    expect(result.fix).toContain('switched on');
    expect(result.fix).toContain(`\`pinbridge doctor --port ${pair.b}\``);
    expect(result.pt.summary).toBe(`O PINPAD em ${pair.b} não respondeu em 400 ms`);
    expect(result.pt.fix).toContain(`depois execute \`pinbridge doctor --port ${pair.b}\` de novo`);
    expect(result.pt.fix).toContain(`\`pinbridge pinpad info --port ${pair.b}\``);
  });

  it('lets go of a silent port: it can be opened again at once', async () => {
    const pair = await silentPty();
    await checkPinpads({ address: pair.b, timeoutMs: 300, listPorts: noPorts });
    const again = new SerialTransport(pair.b);
    await again.open();
    await again.close();
  });

  it('says when another program holds the port', async () => {
    const pair = await silentPty();
    const holder = new SerialTransport(pair.b);
    await holder.open();
    cleanups.push(() => holder.close());
    const result = await checkPinpads({ address: pair.b, timeoutMs: 2000, listPorts: noPorts, username: 'maria' });
    expect(result).toMatchObject({ status: 'fail', details: { error: { code: 'PORT_BUSY' } } });
    expect(result.fix).toContain('Another program holds');
  });

  it('fails on a port that does not exist, pointing at the cable and `pinbridge pinpad list`', async () => {
    const result = await checkPinpads({ address: '/dev/ttyACM-pinbridge-none', timeoutMs: 2000, listPorts: noPorts });
    expect(result).toMatchObject({ status: 'fail', details: { error: { code: 'PORT_NOT_FOUND' } } });
    expect(result.fix).toContain('`pinbridge pinpad list`');
  });

  it('fails on a network PINPAD nobody listens for, with a network fix', async () => {
    const port = await closedTcpPort();
    const result = await checkPinpads({ address: `tcp://127.0.0.1:${port}`, timeoutMs: 2000, listPorts: noPorts });
    expect(result).toMatchObject({ status: 'fail', details: { error: { code: 'CONNECTION_REFUSED' } } });
    expect(result.fix).toContain('store network');
    expect(result.pt.fix).toContain('na rede da loja');
  });

  it('refuses an address that is not one', async () => {
    const result = await checkPinpads({ address: 'COM', timeoutMs: 2000, listPorts: noPorts });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('is not a valid PINPAD address');
    expect(result.pt.summary).toBe(`O endereço de PINPAD "COM" não foi aceito: ${result.summary}`);
    expect(result.fix).toContain('/dev/ttyACM0');
  });

  it('without an address, lists the serial ports that look like PINPADs', async () => {
    const ports: PortInfo[] = [
      { path: '/dev/ttyS0' },
      { path: '/dev/ttyACM0', vendorId: '1753', productId: 'c902', manufacturer: 'GERTEC' },
    ];
    const result = await checkPinpads({ timeoutMs: 2000, listPorts: () => Promise.resolve(ports) });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain('/dev/ttyACM0 (Gertec PPC930)');
    expect(result.summary).toContain('`pinbridge doctor --port /dev/ttyACM0`');
    expect(result.pt).toEqual({
      summary:
        'Provável PINPAD encontrado em /dev/ttyACM0 (Gertec PPC930); execute `pinbridge doctor --port /dev/ttyACM0` para abri-lo',
    });
    expect(result.details.serial_ports).toEqual([
      expect.objectContaining({ address: '/dev/ttyACM0', likely_pinpad: true, maker: 'Gertec' }),
      expect.objectContaining({ address: '/dev/ttyS0', likely_pinpad: false }),
    ]);
  });

  it('warns when no serial port looks like a PINPAD and no address was given', async () => {
    const result = await checkPinpads({ timeoutMs: 2000, listPorts: () => Promise.resolve([{ path: '/dev/ttyS0' }]) });
    expect(result.status).toBe('warn');
    expect(result.fix).toContain('`pinbridge pinpad list`');
    expect(result.pt).toEqual({
      summary:
        'Nenhum PINPAD encontrado: 1 porta serial, nenhuma com o id USB de um fabricante de PINPAD; nenhum endereço de PINPAD informado para abrir',
      fix: 'Conecte o cabo USB do PINPAD e ligue-o, depois execute `pinbridge pinpad list`; um PINPAD de rede é verificado com `pinbridge doctor --port tcp://HOST:PORT`.',
    });
  });

  it('warns when the serial ports cannot be listed', async () => {
    const result = await checkPinpads({ timeoutMs: 2000, listPorts: () => Promise.reject(new Error('udev is gone')) });
    expect(result).toMatchObject({ status: 'warn', details: { list_error: 'udev is gone' } });
  });
});

describe('the pinpads check: the PINPAD’s keys', () => {
  async function tcpPinpad(keySlots: ConstructorParameters<typeof PinpadSimulator>[0]): Promise<string> {
    const tcp = await startTcpSimulator(new PinpadSimulator({ profile: 'strict', ...keySlots }));
    cleanups.push(() => tcp.close());
    return tcp.address;
  }
  const withKeys = (keys: NonNullable<NonNullable<EmvTablesDocument['acquirers']>[string]['keys']>) =>
    parseEmvTables({ ...TEST_EMV_TABLES, acquirers: { '02': { keys } } });

  it('shows the key maps and the method each acquirer will use, from the tables the settings name', async () => {
    const address = await tcpPinpad({ keySlots: { dukptPin: [1], dukptData: [], mkPin: [], mkData: [2] } });
    const result = await checkPinpads({
      address,
      timeoutMs: 5000,
      listPorts: noPorts,
      keys: { tables: parseEmvTables(TEST_EMV_TABLES) },
    });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain(
      'key maps: DUKPT PIN 01; DUKPT data none; PIN master keys none; data master keys 02; acquirer 02: card data by MK/WK with data master key slot 02, the PIN by DUKPT PIN slot 01',
    );
    expect(result.pt.summary).toContain(
      'mapas de chaves: DUKPT de PIN 01; DUKPT de dados nenhuma; chaves mestras de PIN nenhuma; chaves mestras de dados 02; adquirente 02: dados do cartão por MK/WK com a chave mestra de dados do slot 02, a senha por DUKPT de PIN no slot 01',
    );
    expect(result.details).toMatchObject({
      pinpad: { key_maps: { dukpt_pin: [1], dukpt_data: [], mk_pin: [], mk_data: [2] } },
      key_methods: [{ acquirer: '02', card_data: { method: 'mkwk', slot: 2 }, pin: { method: 'dukpt', slot: 1 } }],
    });
    // The working keys and the RSA modulus stay out of the report.
    expect(JSON.stringify(result)).not.toMatch(/working_key|modulus/);
  });

  it('takes the provider’s cached tables for this PINPAD’s serial when the settings say "provider"', async () => {
    const address = await tcpPinpad({ keySlots: { dukptPin: [1], dukptData: [], mkPin: [], mkData: [] } });
    const asked: string[] = [];
    const result = await checkPinpads({
      address,
      timeoutMs: 5000,
      listPorts: noPorts,
      keys: {
        providerTables: (serial) => {
          asked.push(serial);
          return parseEmvTables(TEST_EMV_TABLES);
        },
      },
    });
    expect(asked).toHaveLength(1);
    expect(result.summary).toContain('card data by the random-key method (RSA key pinbridge-sandbox-test-rsa-1)');
    expect(result.details).toMatchObject({
      key_methods: [{ card_data: { method: 'random_key', key_id: 'pinbridge-sandbox-test-rsa-1' } }],
    });
  });

  it('uses the settings’ DUKPT slots without tables', async () => {
    const address = await tcpPinpad({ keySlots: { dukptPin: [2], dukptData: [2] } });
    const result = await checkPinpads({
      address,
      timeoutMs: 5000,
      listPorts: noPorts,
      keys: { keySlots: { pin: 2, data: 2 } },
    });
    expect(result.status).toBe('ok');
    expect(result.summary).toContain('every sale: card data by DUKPT data slot 02, the PIN by DUKPT PIN slot 02');
  });

  it('fails a PINPAD with no key the provider opens, naming the fix in both languages', async () => {
    const address = await tcpPinpad({ keySlots: { dukptPin: [], dukptData: [1], mkPin: [3], mkData: [] } });
    const result = await checkPinpads({
      address,
      timeoutMs: 5000,
      listPorts: noPorts,
      keys: { tables: withKeys({ card_data: [{ method: 'dukpt', slot: 1 }], pin: [{ method: 'dukpt', slot: 1 }] }) },
    });
    expect(result.status).toBe('fail');
    expect(result.summary).toContain('the PIN by nothing usable');
    expect(result.fix).toBe(
      'No sale can run on it until it holds a key the payments provider opens: the PIN of acquirer 02: DUKPT PIN slot 01 is empty — load a DUKPT PIN key in slot 01, or have the provider offer MK/WK for PIN master key slot 03.',
    );
    expect(result.pt.fix).toBe(
      'Nenhuma venda pode ser feita nele até que tenha uma chave que o sistema de pagamentos abre: a senha do adquirente 02: DUKPT de PIN no slot 01 está vazio — carregue uma chave DUKPT de PIN no slot 01, ou peça ao provedor de pagamentos que ofereça MK/WK para a chave mestra de PIN do slot 03.',
    );
    expect(result.details).toMatchObject({
      key_methods: [{ acquirer: '02', card_data: { method: 'dukpt' }, pin: null }],
    });
  });

  it('says nothing of keys for a legacy PINPAD, which has no key maps', async () => {
    const tcp = await startTcpSimulator(new PinpadSimulator({ profile: 'legacy' }));
    cleanups.push(() => tcp.close());
    const result = await checkPinpads({
      address: tcp.address,
      timeoutMs: 5000,
      listPorts: noPorts,
      terminalChannel: 1,
    });
    expect(result.status).toBe('ok');
    expect(result.details).not.toHaveProperty('key_methods');
    expect(result.summary).not.toContain('key maps');
  });
});
