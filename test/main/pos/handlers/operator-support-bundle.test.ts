/**
 * The window's support bundle through the real agent (training mode, its own home, the simulated
 * PINPAD): after a sale and a CPF typed on the PINPAD, operator.supportBundle makes one archive —
 * read back by the system's tar — with the running agent's doctor report, its log, the last PINPAD
 * trace it kept, the settings without their secrets and the versions, every file listed in the
 * manifest; no card number, name or CPF in any of it; saved in ~/.pinbridge/support/ and nothing
 * sent. operator.sendSupportBundle sends only with the cashier's `confirmed`, exactly the bytes
 * made, to the 127.0.0.1 receiver of support.upload_url; a refusal or a server that is gone is an
 * answer with the reason in pt-BR; a disk that cannot take the archive costs the file only. A POS
 * gets none of it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Agent } from '../../../../main/agent/agent.js';
import { loadSettings } from '../../../../main/settings/settings-file.js';
import { createLogger } from '../../../../main/log.js';
import type { Manifest } from '../../../../main/support/bundle.js';
import { TEST_CARDS } from '../../../../drivers/simulator/index.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { extractTarGz } from '../../../helpers/tar-extract.js';
import { checkedCall as call, checkedFailure as refused, openSocket, RpcClient } from '../pos-rig.js';

const SECRET = 'bearer-secret-5e1f0a';
const CPF = '52998224725';
const CARD = TEST_CARDS.visaCredit;

let home: string;
let agent: Agent;
let window: RpcClient;
let receiver: Server;
let receiverPort: number;
let received: { method: string; path: string; type: string | undefined; body: Buffer }[];
let answer: number;
let terminal: string;

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const packetsOf = (trace: string): string =>
  [...trace.matchAll(/"data":"([0-9a-f]+)"/g)].map((m) => Buffer.from(m[1]!, 'hex').toString('latin1')).join('\n');

beforeAll(async () => {
  received = [];
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method!,
        path: request.url!,
        type: request.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.address() as { port: number }).port;

  home = mkdtempSync(join(artifactsDir(), 'operator-support-'));
  mkdirSync(join(home, '.pinbridge'), { recursive: true });
  writeFileSync(
    join(home, '.pinbridge', 'settings.json'),
    JSON.stringify({
      pinpad: { address: 'sim' },
      telemetry: { enabled: false, endpoint: 'https://prometheus.example/api/v1/write', bearer_token: SECRET },
      support: { upload_url: `http://127.0.0.1:${receiverPort}/bundles/caixa-3` },
    }),
  );
  const logFile = join(home, '.pinbridge', 'logs', 'pinbridge.log');
  agent = await Agent.start({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: 'sim',
    home,
    posPorts: [0],
    logger: createLogger({ level: 'info', file: logFile }),
    logFile,
    simulatedCustomerDelayMs: 20,
  });
  await agent.ready;
  window = await openWindow();
  // A training sale (a card read, its PIN) and a CPF typed at the PINPAD: card data and a CPF crossed the wire.
  terminal = (await call(window, 'pinpad.list')).pinpads[0]!.serial_number;
  expect(
    await window.call('payment.start', {
      reference_id: 'bundle-sale-1',
      amount: 1234,
      payment_type: 'credit',
      installments: 1,
      description: 'Venda antes do pacote de suporte',
      terminal,
    }),
  ).toMatchObject({ status: 'approved' });
  expect(await call(window, 'pinpad.readCustomerData', { terminal, kind: 'cpf', timeout_s: 10 })).toEqual({
    kind: 'cpf',
    value: CPF,
  });
}, 60_000);

afterAll(async () => {
  window?.socket.terminate();
  await agent?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

// Each spec its own window connection: its own rate budget (a bundle costs 20 of its 200).
beforeEach(async () => {
  received = [];
  answer = 201;
  window.socket.terminate();
  window = await openWindow();
});

async function openWindow(): Promise<RpcClient> {
  const opened = new RpcClient(await openSocket(agent.pos.url, { Origin: `http://127.0.0.1:${agent.pos.port}` }));
  await call(opened, 'session.operator', { key: agent.operatorKey });
  return opened;
}

describe('operator.supportBundle', () => {
  it("makes one archive of the running agent's doctor, log, last PINPAD trace, settings without secrets and versions, and sends nothing", async () => {
    const made = await call(window, 'operator.supportBundle');
    const archive = Buffer.from(made.archive_base64, 'base64');
    expect(made).toMatchObject({
      id: expect.stringMatching(/^pinbridge-support-.*\.tar\.gz$/) as string,
      file: join(home, '.pinbridge', 'support', made.id),
      not_saved: null,
      bytes: archive.length,
      sha256: sha256(archive),
      upload_to: `http://127.0.0.1:${receiverPort}`,
    });
    expect(readFileSync(made.file!)).toEqual(archive);

    const { names, files } = extractTarGz(archive);
    expect(names[0]).toBe('manifest.json');
    expect(names).toEqual(
      expect.arrayContaining(['doctor.json', 'logs/pinbridge.log', 'settings.json', 'versions.json']),
    );
    const trace = names.find((name) => name.startsWith('pinpad-trace/pinpad-'));
    expect(trace).toMatch(/\.trace\.jsonl$/);
    const manifest = JSON.parse(files.get('manifest.json')!.toString()) as Manifest;
    expect(manifest.files.map((file) => file.name)).toEqual(names.slice(1));
    expect(made.files).toEqual(manifest.files.map(({ name, size }) => ({ name, size })));
    for (const entry of manifest.files) expect(sha256(files.get(entry.name)!)).toBe(entry.sha256);

    // The running agent's doctor: its own PINPAD link, not a second opening of the port.
    const doctor = JSON.parse(files.get('doctor.json')!.toString()) as { checks: { id: string; status: string }[] };
    expect(doctor.checks.map((check) => check.id)).toEqual(expect.arrayContaining(['settings', 'pinpads', 'disk']));
    // The trace of this connection: the sale's card read and the CPF prompt, written before the bundle read it.
    const traceText = files.get(trace!)!.toString();
    expect(traceText).toContain('"id":"GCD"');
    expect(traceText).toMatch(/"id":"G[CO]X"/);
    expect(JSON.parse(files.get('versions.json')!.toString())).toMatchObject({
      pinpad: { serial_number: terminal },
    });
    const settings = files.get('settings.json')!.toString();
    expect(settings).toContain('"bearer_token": "(set)"');

    // Nothing of the card, the cardholder, the CPF or the secret, in any file, nor in the trace's packets.
    const everything = [...files.values()].map((bytes) => bytes.toString('latin1')).join('\n') + packetsOf(traceText);
    for (const secret of [CARD.pan, CARD.cardholderName, CPF, SECRET]) expect(everything).not.toContain(secret);
    expect(received).toEqual([]);
  });

  it('still gives the archive, to download or send, when the disk does not take it, saying why in pt-BR', async () => {
    const dir = join(home, '.pinbridge', 'support');
    rmSync(dir, { recursive: true, force: true });
    // A file where the folder goes: the write fails as on a broken disk.
    writeFileSync(dir, '');
    try {
      const made = await call(window, 'operator.supportBundle');
      expect(made.file).toBeNull();
      expect(made.not_saved).toMatchObject({
        code: expect.stringMatching(/^E[A-Z]+$/) as string,
        cashier_message: expect.stringContaining('O pacote não foi salvo') as string,
      });
      expect(made.not_saved!.cashier_message).toContain('Você ainda pode baixá-lo ou enviá-lo ao suporte.');
      expect(extractTarGz(Buffer.from(made.archive_base64, 'base64')).names).toContain('doctor.json');
      expect(await call(window, 'operator.sendSupportBundle', { bundle_id: made.id, confirmed: true })).toMatchObject({
        sent: true,
      });
      expect(received).toHaveLength(1);
    } finally {
      rmSync(dir, { force: true });
    }
  });

  it('carries the PINPAD connection from memory when the traces folder takes nothing, the failure logged once', async () => {
    const traces = join(home, '.pinbridge', 'traces');
    rmSync(traces, { recursive: true, force: true });
    writeFileSync(traces, '');
    try {
      // Packets the folder cannot take: the PINPAD shows them all the same.
      for (const line of ['PACOTE 1', 'PACOTE 2']) await call(window, 'pinpad.display', { terminal, text: line });
      const made = await call(window, 'operator.supportBundle');
      const { names, files } = extractTarGz(Buffer.from(made.archive_base64, 'base64'));
      const trace = names.find((name) => name.startsWith('pinpad-trace/'));
      expect(files.get(trace!)!.toString()).toContain(Buffer.from('PACOTE 2').toString('hex'));
      const log = readFileSync(join(home, '.pinbridge', 'logs', 'pinbridge.log'), 'utf8');
      expect(log.split('\n').filter((line) => line.includes('the PINPAD trace could not be written'))).toHaveLength(1);
    } finally {
      rmSync(traces, { force: true });
    }
  });
});

describe('operator.sendSupportBundle', () => {
  it("sends nothing without the cashier's yes, then exactly the bytes made, once, to support.upload_url", async () => {
    const made = await call(window, 'operator.supportBundle');
    for (const params of [{ bundle_id: made.id }, { bundle_id: made.id, confirmed: false }]) {
      expect((await refused(window, 'operator.sendSupportBundle', params)).code).toBe('INVALID_PARAMS');
    }
    expect(received).toEqual([]);

    expect(await call(window, 'operator.sendSupportBundle', { bundle_id: made.id, confirmed: true })).toEqual({
      sent: true,
      to: `http://127.0.0.1:${receiverPort}`,
      status: 201,
    });
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'PUT', path: '/bundles/caixa-3', type: 'application/gzip' });
    expect(received[0]!.body).toEqual(Buffer.from(made.archive_base64, 'base64'));
  });

  it('answers a refusal with the reason in pt-BR, and a bundle other than the last one as NOT_FOUND', async () => {
    const made = await call(window, 'operator.supportBundle');
    answer = 403;
    expect(await call(window, 'operator.sendSupportBundle', { bundle_id: made.id, confirmed: true })).toEqual({
      sent: false,
      to: `http://127.0.0.1:${receiverPort}`,
      code: 'UPLOAD_FAILED',
      reason: 'refused',
      message: `http://127.0.0.1:${receiverPort} refused the bundle: HTTP 403`,
      cashier_message: `http://127.0.0.1:${receiverPort} recusou o pacote (HTTP 403). Avise o suporte.`,
    });
    const unknown = await refused(window, 'operator.sendSupportBundle', {
      bundle_id: 'pinbridge-support-2020-01-01T00-00-00-000Z.tar.gz',
      confirmed: true,
    });
    expect(unknown).toMatchObject({
      code: 'NOT_FOUND',
      reason: 'BUNDLE_UNKNOWN',
      cashier_message: 'Este pacote não está mais disponível: gere um novo pacote de suporte.',
    });
  });

  it('says in pt-BR that the server could not be reached, when nothing listens there', async () => {
    const made = await call(window, 'operator.supportBundle');
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    try {
      const outcome = await call(window, 'operator.sendSupportBundle', { bundle_id: made.id, confirmed: true });
      expect(outcome).toMatchObject({
        sent: false,
        reason: 'unreachable',
        cashier_message: `Não foi possível conectar a http://127.0.0.1:${receiverPort}. Verifique a conexão com a internet e tente de novo.`,
      });
    } finally {
      await new Promise<void>((resolve) => receiver.listen(receiverPort, '127.0.0.1', resolve));
    }
  });

  it('is not for a POS', async () => {
    const pos = new RpcClient(await openSocket(agent.pos.url));
    for (const method of ['operator.supportBundle', 'operator.sendSupportBundle'] as const) {
      const params =
        method === 'operator.supportBundle'
          ? {}
          : { bundle_id: 'pinbridge-support-2020-01-01T00-00-00-000Z.tar.gz', confirmed: true };
      expect(['UNAUTHENTICATED', 'OPERATOR_ONLY']).toContain((await refused(pos, method, params)).code);
    }
    pos.socket.terminate();
  });
});
