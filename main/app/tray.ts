/**
 * The tray icon: a dot whose colour says at a glance whether the checkout can take cards
 * (green: PINPAD connected and the payments API answering; yellow: something to look at; red:
 * no PINPAD or no API), its tooltip in pt-BR, and its menu.
 */
import type { MenuItemConstructorOptions } from 'electron';

export type TrayLevel = 'ok' | 'warn' | 'error';

export interface TrayFacts {
  readonly training: boolean;
  readonly pinpadsConnected: number;
  readonly pinpadsKnown: number;
  /** The payments API's health: up, down, or not yet known (no call made). */
  readonly api: 'up' | 'down' | 'unknown';
  /** Printers in trouble (unreachable, out of paper, cover open). */
  readonly printersInTrouble: number;
}

export interface TrayState {
  readonly level: TrayLevel;
  /** pt-BR, one line per fact. */
  readonly tooltip: string;
}

export function trayState(facts: TrayFacts): TrayState {
  const lines: string[] = [facts.training ? 'Pinbridge — MODO TREINAMENTO' : 'Pinbridge'];
  let level: TrayLevel = 'ok';
  const worse = (next: TrayLevel): void => {
    if (next === 'error' || (next === 'warn' && level === 'ok')) level = next;
  };
  if (facts.pinpadsConnected === 0) {
    worse('error');
    lines.push(facts.pinpadsKnown === 0 ? 'PINPAD: procurando…' : 'PINPAD: desconectado');
  } else
    lines.push(facts.pinpadsConnected === 1 ? 'PINPAD: conectado' : `PINPADs: ${facts.pinpadsConnected} conectados`);
  if (facts.api === 'down') {
    worse('error');
    lines.push('Pagamentos: sem comunicação');
  } else lines.push(facts.api === 'up' ? 'Pagamentos: ok' : 'Pagamentos: aguardando');
  if (facts.printersInTrouble > 0) {
    worse('warn');
    lines.push(
      facts.printersInTrouble === 1
        ? 'Impressora: verificar'
        : `Impressoras: ${facts.printersInTrouble} para verificar`,
    );
  }
  return { level, tooltip: lines.join('\n') };
}

export interface TrayActions {
  open(): void;
  setStartOnLogin(enabled: boolean): void;
  quit(): void;
}

export function trayMenu(state: TrayState, startOnLogin: boolean, actions: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: 'Abrir o Pinbridge', click: () => actions.open() },
    { type: 'separator' },
    ...state.tooltip
      .split('\n')
      .slice(1)
      .map((line): MenuItemConstructorOptions => ({ label: line, enabled: false })),
    { type: 'separator' },
    {
      label: 'Iniciar com o computador',
      type: 'checkbox',
      checked: startOnLogin,
      click: (item) => actions.setStartOnLogin(item.checked),
    },
    { type: 'separator' },
    { label: 'Sair do Pinbridge', click: () => actions.quit() },
  ];
}

const COLOURS: Record<TrayLevel, readonly [number, number, number]> = {
  ok: [0x1e, 0x9e, 0x4a],
  warn: [0xe0, 0xa0, 0x00],
  error: [0xd0, 0x2b, 0x2b],
};

/**
 * A filled dot of the level's colour as a raw BGRA bitmap (what nativeImage.createFromBitmap
 * takes): three colours drawn at run time instead of three image files to package per size.
 */
export function trayBitmap(level: TrayLevel, size: number): Buffer {
  const [red, green, blue] = COLOURS[level];
  const bitmap = Buffer.alloc(size * size * 4);
  const centre = (size - 1) / 2;
  const radius = size / 2 - 1;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      // Coverage of the pixel by the disc, for a smooth edge (a one-pixel ramp).
      const distance = Math.hypot(x - centre, y - centre);
      const coverage = Math.max(0, Math.min(1, radius + 0.5 - distance));
      const offset = (y * size + x) * 4;
      bitmap[offset] = blue;
      bitmap[offset + 1] = green;
      bitmap[offset + 2] = red;
      bitmap[offset + 3] = Math.round(coverage * 255);
    }
  }
  return bitmap;
}
