/** The tray's colour and words follow what a cashier needs to know: can this checkout take cards? */
import { describe, expect, it } from 'vitest';
import { trayBitmap, trayMenu, trayState } from '../../../main/app/tray.js';

const healthy = { training: false, pinpadsConnected: 1, pinpadsKnown: 1, api: 'up', printersInTrouble: 0 } as const;

describe('trayState', () => {
  it('is green with the PINPAD connected and the API answering', () => {
    expect(trayState(healthy)).toEqual({ level: 'ok', tooltip: 'Pinbridge\nPINPAD: conectado\nPagamentos: ok' });
  });

  it('is red without a PINPAD or without the API, and yellow for a printer to check', () => {
    expect(trayState({ ...healthy, pinpadsConnected: 0 })).toMatchObject({
      level: 'error',
      tooltip: expect.stringContaining('PINPAD: desconectado') as unknown,
    });
    expect(trayState({ ...healthy, pinpadsConnected: 0, pinpadsKnown: 0 }).tooltip).toContain('PINPAD: procurando…');
    expect(trayState({ ...healthy, api: 'down' })).toMatchObject({
      level: 'error',
      tooltip: expect.stringContaining('Pagamentos: sem comunicação') as unknown,
    });
    expect(trayState({ ...healthy, printersInTrouble: 2 })).toMatchObject({
      level: 'warn',
      tooltip: expect.stringContaining('Impressoras: 2 para verificar') as unknown,
    });
    expect(trayState({ ...healthy, printersInTrouble: 1, api: 'down' }).level).toBe('error');
  });

  it('says training mode first', () => {
    expect(trayState({ ...healthy, training: true }).tooltip.split('\n')[0]).toBe('Pinbridge — MODO TREINAMENTO');
  });
});

describe('trayMenu', () => {
  it('opens the window, shows the facts, switches start on login and quits', () => {
    const calls: string[] = [];
    const menu = trayMenu(trayState(healthy), true, {
      open: () => calls.push('open'),
      setStartOnLogin: (enabled) => calls.push(`login:${enabled}`),
      quit: () => calls.push('quit'),
    });
    expect(menu.map((item) => item.label ?? item.type)).toEqual([
      'Abrir o Pinbridge',
      'separator',
      'PINPAD: conectado',
      'Pagamentos: ok',
      'separator',
      'Iniciar com o computador',
      'separator',
      'Sair do Pinbridge',
    ]);
    const click = (label: string, checked = false): void =>
      (menu.find((item) => item.label === label)!.click as unknown as (item: { checked: boolean }) => void)({
        checked,
      });
    click('Abrir o Pinbridge');
    click('Iniciar com o computador', false);
    click('Sair do Pinbridge');
    expect(calls).toEqual(['open', 'login:false', 'quit']);
  });
});

describe('trayBitmap', () => {
  it("draws an opaque dot of the level's colour with transparent corners (BGRA)", () => {
    const size = 32;
    const bitmap = trayBitmap('ok', size);
    expect(bitmap.length).toBe(size * size * 4);
    const at = (x: number, y: number): number[] => [...bitmap.subarray((y * size + x) * 4, (y * size + x) * 4 + 4)];
    expect(at(16, 16)).toEqual([0x4a, 0x9e, 0x1e, 255]);
    expect(at(0, 0)[3]).toBe(0);
    expect(trayBitmap('error', size)[(16 * size + 16) * 4 + 2]).toBe(0xd0);
  });
});
