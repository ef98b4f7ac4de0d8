/**
 * The status line's one answer (renderer/readiness.ts): "Pronto para vender", or exactly what is
 * missing, in the cashier's words — blocking what stops the sales (the connection to Pinbridge,
 * a full disk, no PINPAD, the payments service), warning of what lets them go on (the printer: the
 * receipt waits in the queue). Read from the compiled window (`npm run build` first), in Node,
 * with the agent's states as the window hears them; test/renderer/ready-line.test.ts shows the
 * line itself in Chromium as those states come and go.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientState, EventPayload } from '../../client/index.js';
import { PACKAGE_ROOT } from '../../main/version.js';

// renderer/readiness.ts's shapes, restated: the window's sources compile with the DOM library, the specs without it.
type Pinpad = EventPayload<'pinpad.connected'>;
type Printer = EventPayload<'printer.status'>;
interface DeviceStates {
  readonly pinpads: readonly Pinpad[];
  readonly link: EventPayload<'pinpad.link'> | null;
  readonly printers: readonly Printer[];
  readonly api: EventPayload<'api.health'> | null;
  readonly disk: EventPayload<'agent.disk'> | null;
}
interface ReadinessInput {
  readonly connection: ClientState;
  readonly mode: 'training' | 'live' | null;
  readonly devices: DeviceStates | null;
}
interface Readiness {
  readonly level: string;
  readonly missing: readonly { readonly what: string }[];
  readonly text: string;
}

let readiness: (input: ReadinessInput) => Readiness;
beforeAll(async () => {
  const module = (await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'renderer', 'readiness.js')).href)) as {
    readiness: typeof readiness;
  };
  readiness = module.readiness;
});

const PINPAD: Pinpad = {
  serial_number: 'SIM0000000000001',
  manufacturer: 'PINBRIDGE SIM',
  model: 'PBSIM-1',
  firmware: 'SIMOS 1.0',
  address: 'sim',
  connected: true,
  busy: false,
  payment_reference: null,
  tables: null,
};

const PRINTER: Printer = {
  name: 'default',
  address: 'tcp://192.168.0.50:9100',
  connected: true,
  paper_out: false,
  paper_low: false,
  cover_open: false,
  error: null,
};

const READY: DeviceStates = {
  pinpads: [PINPAD],
  link: null,
  printers: [PRINTER],
  api: { state: 'up', since: '2026-11-28T12:00:00.000Z', last_error: null },
  disk: null,
};

const live = (devices: Partial<DeviceStates> = {}): ReadinessInput => ({
  connection: 'ready',
  mode: 'live',
  devices: { ...READY, ...devices },
});

const said = (input: ReadinessInput): { level: string; text: string; missing: string[] } => {
  const answer = readiness(input);
  return { level: answer.level, text: answer.text, missing: answer.missing.map((item) => item.what) };
};

describe('the status line', () => {
  it('says "Pronto para vender" when the PINPAD, the printer, the payments service and the disk are all well', () => {
    expect(said(live())).toEqual({ level: 'ok', text: 'Pronto para vender', missing: [] });
    // Training is said, not a problem.
    expect(said({ ...live(), mode: 'training' })).toEqual({
      level: 'ok',
      text: 'Pronto para vender (treinamento)',
      missing: [],
    });
  });

  it('says it is connecting, then checking, before it knows', () => {
    expect(said({ connection: 'connecting', mode: null, devices: null })).toEqual({
      level: 'off',
      text: 'Conectando ao Pinbridge…',
      missing: [],
    });
    expect(said({ connection: 'ready', mode: 'live', devices: null })).toEqual({
      level: 'off',
      text: 'Verificando…',
      missing: [],
    });
  });

  it('says the connection to Pinbridge is lost, and nothing of the devices it can no longer know', () => {
    expect(said({ connection: 'reconnecting', mode: 'live', devices: READY })).toEqual({
      level: 'bad',
      text: 'Sem conexão com o Pinbridge — reconectando…',
      missing: ['connection'],
    });
    expect(said({ connection: 'closed', mode: 'live', devices: null }).text).toBe('Sem conexão com o Pinbridge');
  });

  it('blocks on a disconnected PINPAD, or none; waits while the PINPAD is being reached', () => {
    expect(said(live({ pinpads: [{ ...PINPAD, connected: false }] }))).toEqual({
      level: 'bad',
      text: 'PINPAD desconectado',
      missing: ['pinpad'],
    });
    expect(said(live({ pinpads: [] })).text).toBe('PINPAD desconectado');
    const connecting = live({
      pinpads: [],
      link: {
        address: '/dev/ttyACM0',
        state: 'connecting',
        code: null,
        error: null,
        message: 'Connecting',
        cashier_message: 'Conectando',
        since: '2026-11-28T12:00:00.000Z',
      },
    });
    expect(said(connecting)).toEqual({ level: 'warn', text: 'Conectando ao PINPAD…', missing: ['pinpad'] });
  });

  it('blocks when the PINPAD has no EMV tables to sell with, and waits while they load', () => {
    const tables = (state: 'loading' | 'failed'): Pinpad => ({
      ...PINPAD,
      tables: { state, version: '0001', acquirers: [1], error: null, cache_tampered: false },
    });
    expect(said(live({ pinpads: [tables('failed')] }))).toEqual({
      level: 'bad',
      text: 'PINPAD sem tabelas EMV: as vendas são recusadas',
      missing: ['tables'],
    });
    expect(said(live({ pinpads: [tables('loading')] })).level).toBe('warn');
    // A second PINPAD that can sell is enough.
    expect(said(live({ pinpads: [tables('failed'), { ...PINPAD, serial_number: 'SIM2' }] })).level).toBe('ok');
  });

  it('blocks when the payments service does not answer; a service not consulted yet is no news', () => {
    expect(said(live({ api: { state: 'down', since: null, last_error: null } }))).toEqual({
      level: 'bad',
      text: 'Sem conexão com o serviço de pagamentos',
      missing: ['api'],
    });
    expect(said(live({ api: { state: 'unknown', since: null, last_error: null } })).level).toBe('ok');
  });

  it('blocks on a full disk that refuses new sales; a disk refusing only the logs lets the sales go on', () => {
    const disk = (salesRefused: boolean): DeviceStates['disk'] => ({
      state: 'full',
      since: '2026-11-28T12:00:00.000Z',
      sources: salesRefused ? ['journal'] : ['logs'],
      code: 'ENOSPC',
      sales_refused: salesRefused,
      message: 'full',
      cashier_message: 'cheio',
    });
    expect(said(live({ disk: disk(true) }))).toEqual({
      level: 'bad',
      text: 'Disco cheio: novas vendas suspensas até liberar espaço',
      missing: ['disk'],
    });
    expect(said(live({ disk: disk(false) }))).toEqual({
      level: 'warn',
      text: 'O disco não aceita gravação — as vendas seguem',
      missing: ['disk'],
    });
  });

  it('warns of a printer out of reach, out of paper or open: the sales go on, the receipt waits in the queue', () => {
    expect(said(live({ printers: [{ ...PRINTER, connected: false }] }))).toEqual({
      level: 'warn',
      text: 'Impressora desconectada — as vendas seguem, o comprovante fica na fila',
      missing: ['printer'],
    });
    expect(said(live({ printers: [{ ...PRINTER, paper_out: true }] })).text).toBe(
      'Impressora sem papel — as vendas seguem, o comprovante fica na fila',
    );
    expect(said(live({ printers: [{ ...PRINTER, cover_open: true }] })).text).toBe(
      'Tampa da impressora aberta — as vendas seguem, o comprovante fica na fila',
    );
    expect(said(live({ printers: [{ ...PRINTER, error: 'AUTOCUTTER' }] })).text).toBe(
      'Impressora com erro — as vendas seguem, o comprovante fica na fila',
    );
    // Paper running low still prints.
    expect(said(live({ printers: [{ ...PRINTER, paper_low: true }] })).text).toBe(
      'Papel da impressora acabando — as vendas seguem',
    );
  });

  it('says nothing of a printer being checked, nor of a system printer its spooler answers for', () => {
    expect(said(live({ printers: [{ ...PRINTER, connected: null }] })).level).toBe('ok');
    expect(said(live({ printers: [{ ...PRINTER, address: 'lp://Recibos', connected: null }] })).level).toBe('ok');
    expect(said(live({ printers: [] })).level).toBe('ok');
  });

  it('says everything missing, what stops the sales first, without promising the sales go on', () => {
    expect(
      said(
        live({
          pinpads: [{ ...PINPAD, connected: false }],
          printers: [{ ...PRINTER, connected: false }],
          api: { state: 'down', since: null, last_error: null },
        }),
      ),
    ).toEqual({
      level: 'bad',
      text: 'PINPAD desconectado · Sem conexão com o serviço de pagamentos · Impressora desconectada',
      missing: ['pinpad', 'api', 'printer'],
    });
  });

  it('names the printer when there are several', () => {
    expect(said(live({ printers: [PRINTER, { ...PRINTER, name: 'cozinha', paper_out: true }] })).text).toBe(
      'Impressora sem papel (cozinha) — as vendas seguem, o comprovante fica na fila',
    );
  });
});
