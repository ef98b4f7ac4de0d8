/**
 * What the agent says about the link to its PINPAD when there is no PINPAD to list: the state a
 * failure leaves, and the sentence for a technician (English) and for the cashier (pt-BR) — the
 * address named in both, so the cashier can tell a wrong address from a pulled cable.
 */
import { describe, expect, it } from 'vitest';
import { failureState, pinpadLinkSentence, type PinpadLinkState } from '../../../main/pinpad/link-status.js';

describe('the PINPAD link', () => {
  it('is "not found" for a port or BLE device that is not there, "unreachable" for one that cannot be opened, "not answering" once open', () => {
    expect(failureState('connect', 'PORT_NOT_FOUND')).toBe('not_found');
    expect(failureState('connect', 'BLE_DEVICE_NOT_FOUND')).toBe('not_found');
    for (const code of ['PORT_BUSY', 'PERMISSION_DENIED', 'CONNECT_TIMEOUT', 'INVALID_PORT', undefined])
      expect(failureState('connect', code)).toBe('unreachable');
    expect(failureState('answer', 'TIMEOUT')).toBe('not_answering');
  });

  it('is said in Portuguese for the cashier and in English for the log, naming the address', () => {
    expect(pinpadLinkSentence({ address: '/dev/ttyACM0', state: 'not_found', code: 'PORT_NOT_FOUND' })).toEqual({
      message: 'PINPAD not found at /dev/ttyACM0',
      cashier_message: 'PINPAD não encontrado em /dev/ttyACM0. Verifique o cabo e se ele está ligado.',
    });
    expect(
      pinpadLinkSentence({ address: 'tcp://10.0.0.5:4000', state: 'unreachable', code: 'CONNECT_TIMEOUT' })
        .cashier_message,
    ).toBe('PINPAD inacessível em tcp://10.0.0.5:4000. Verifique se ele está ligado e conectado à rede.');
    expect(pinpadLinkSentence({ address: 'COM3', state: 'unreachable', code: 'PORT_BUSY' }).cashier_message).toContain(
      'em uso por outro programa',
    );
    expect(pinpadLinkSentence({ address: 'x', state: 'unreachable', code: 'INVALID_PORT' }).cashier_message).toContain(
      'Corrija-o em Configurações',
    );
    expect(
      pinpadLinkSentence({ address: '/dev/ttyUSB0', state: 'not_answering', code: 'TIMEOUT' }).cashier_message,
    ).toMatch(/^O PINPAD em \/dev\/ttyUSB0 não responde/);
    expect(pinpadLinkSentence({ address: '/dev/ttyACM0', state: 'disconnected', code: null }).cashier_message).toMatch(
      /^PINPAD desconectado de \/dev\/ttyACM0/,
    );
    expect(pinpadLinkSentence({ address: 'sim', state: 'connecting', code: null }).cashier_message).toBe(
      'Conectando ao PINPAD em sim…',
    );
  });

  it('names the address it tried in every state and for every failure, in both languages', () => {
    const address = 'tcp://10.0.0.5:4000';
    const cases: { state: PinpadLinkState; code: string | null }[] = [
      ...(['connecting', 'ready', 'not_found', 'not_answering', 'disconnected'] as const).map((state) => ({
        state,
        code: null,
      })),
      ...[
        'PORT_BUSY',
        'PERMISSION_DENIED',
        'INVALID_PORT',
        'CONNECTION_REFUSED',
        'HOST_UNREACHABLE',
        'CONNECT_TIMEOUT',
        'BLE_UNAVAILABLE',
        'SOMETHING_ELSE',
        null,
      ].map((code): { state: PinpadLinkState; code: string | null } => ({ state: 'unreachable', code })),
    ];
    for (const { state, code } of cases) {
      const sentence = pinpadLinkSentence({ address, state, code });
      expect(sentence.message, `${state} ${code}`).toContain(address);
      expect(sentence.cashier_message, `${state} ${code}`).toContain(address);
    }
  });

  it('tells the technician where a mistyped address is corrected', () => {
    expect(pinpadLinkSentence({ address: 'pinpad da loja', state: 'unreachable', code: 'INVALID_PORT' })).toEqual({
      message:
        '"pinpad da loja" is not a valid PINPAD address: correct pinpad.address in the settings (or --port); `pinbridge doctor` says which forms are accepted',
      cashier_message: 'O endereço do PINPAD “pinpad da loja” não é válido. Corrija-o em Configurações.',
    });
  });
});
