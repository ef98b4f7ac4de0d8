/**
 * The ppc930 profile replays its own TRACE (trace.ts): the 25 commands the Scope TEF sent to the
 * real Gertec PPC-930 get the statuses the real one answered, and the answers carry what the
 * real ones carried (the contactless Mastercard selected from acquirer 02's records, the
 * tracks, EBX under data master key 02, an online decision, FCX with the card's 20 tags).
 *
 * The TRACE's OPN carries the Scope TEF's own RSA key, whose private half is not published, so
 * its CRKSEC cannot be opened here: the replay answers it, then opens secure communication with
 * a key of its own (same shape: RSA-2048, exponent 010001) and sends the other 24 commands
 * encrypted, as a spec-following host would after a secure OPN (S220 §5.2.2).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeEmvTlv } from '../../../drivers/abecs/emv.js';
import { head, rawSetup, responseItems } from './raw-host.js';
import { TRACE_EXCHANGES, TRACE_FCX_TAGS, TRACE_OPN } from './trace.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('ppc930 replaying the TRACE (abecs.md §6.3)', () => {
  it(
    'answers every one of the 25 host commands with the status the real PPC-930 answered',
    { timeout: 20_000 },
    async () => {
      // The customer taps a contactless Mastercard credit card during the CEX, as in the recording.
      const { sim, host, close } = await rawSetup({
        profile: 'ppc930',
        autoCustomer: { delayMs: 1, card: 'mastercardContactless' },
      });
      cleanups.push(close);
      expect(TRACE_EXCHANGES).toHaveLength(25);
      const [opn, ...rest] = TRACE_EXCHANGES;
      expect(opn!.command).toEqual(TRACE_OPN);
      const traceOpn = await host.exchangeClear(opn!.command);
      expect(traceOpn.subarray(0, 12).toString('latin1')).toBe('OPN000515256');
      await host.openSecure();

      const answers = new Map<string, Buffer[]>();
      for (const exchange of rest) {
        const raw = await host.exchange(exchange.command);
        expect(`${exchange.at} ${head(raw)}`).toBe(`${exchange.at} ${exchange.answered}`);
        const id = head(raw).slice(0, 3);
        answers.set(id, [...(answers.get(id) ?? []), raw]);
      }
      // Every answer after the secure OPN came encrypted, the NTM "SELECIONADO" included.
      expect(host.encrypted.slice(2).every(Boolean)).toBe(true);
      expect(host.notifications).toEqual(['SELECIONADO:    CREDITO         ']);

      const gcx = responseItems(answers.get('GCX')![0]!);
      expect(gcx.get(0x804f)!.toString('latin1')).toBe('06');
      expect(gcx.get(0x8051)!.toString('latin1')).toBe('020101');
      expect(gcx.get(0x805b)!.toString('latin1')).toBe('CREDITO');
      expect(gcx.get(0x8060)!.toString('latin1')).toBe('00');

      const gtk = responseItems(answers.get('GTK')![0]!);
      expect([...gtk.keys()]).toEqual(expect.arrayContaining([0x804a, 0x8045]));

      for (const ebx of answers.get('EBX')!) expect(responseItems(ebx).get(0x804e)).toHaveLength(8);

      const gox = responseItems(answers.get('GOX')![0]!);
      expect(gox.get(0x8056)!.toString('latin1')).toBe('200000');

      const fcx = responseItems(answers.get('FCX')![0]!);
      expect(fcx.get(0x8058)!.toString('latin1')).toBe('000');
      expect(decodeEmvTlv(fcx.get(0x8054)!).map((item) => item.tag)).toEqual(TRACE_FCX_TAGS);

      // The last DSP left its message on the 8×16 display.
      expect(sim.display.lines.slice(0, 2)).toEqual(['     SCOPE', '  CONEXAO TECH']);
    },
  );
});
