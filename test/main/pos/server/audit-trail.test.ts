/**
 * What the POS server writes to the audit trail (main/audit-log.ts): every pairing request, its
 * approval or rejection, wrong codes and unlocking, blocks and unblocks, revocations — each with
 * who and what, never a code or a token — in the file, apart from the agent's log.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../../main/audit-log.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { checkedCall, posRig, type PosRig } from '../pos-rig.js';

let pos: PosRig;
let audit: AuditLog;

beforeAll(async () => {
  audit = new AuditLog(join(mkdtempSync(join(artifactsDir(), 'audit-trail-')), 'audit.log'));
  pos = await posRig({ noPinpad: true, audit });
});
afterAll(async () => {
  await pos.close();
  audit.close();
});

const written = (): Record<string, unknown>[] =>
  readFileSync(audit.path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the audit trail of the POS server', () => {
  it('records pairing, wrong codes, rejections, blocks and revocations, with no code or token', async () => {
    const window = await pos.operator();
    const page = await pos.connect({ origin: 'https://pdv.loja.example' });
    const asked = await page.call<{ pairing_id: string }>('session.pair', { name: 'Caixa Auditado' });
    const code = pos.announced.find((a) => a.pairingId === asked.pairing_id)!.code;
    await page.failure('session.confirmPairing', {
      pairing_id: asked.pairing_id,
      code: code === '000000' ? '000001' : '000000',
    });
    const done = await page.call<{ client_id: string; token: string }>('session.confirmPairing', {
      pairing_id: asked.pairing_id,
      code,
    });

    const other = await pos.connect();
    const refused = await other.call<{ pairing_id: string }>('session.pair', { name: 'Caixa Recusado' });
    await checkedCall(window, 'operator.rejectPairing', { pairing_id: refused.pairing_id });
    await checkedCall(window, 'operator.blockOrigin', { origin: 'https://mau.example' });
    await checkedCall(window, 'operator.unblockOrigin', { origin: 'https://mau.example' });
    await checkedCall(window, 'operator.unlockPairing', {});
    await checkedCall(window, 'operator.revokeClient', { client_id: done.client_id });

    const lines = written();
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'pairing.requested',
          pairing: asked.pairing_id,
          name: 'Caixa Auditado',
          origin: 'https://pdv.loja.example',
          program: 'node',
          pid: process.pid,
        }),
        expect.objectContaining({
          kind: 'pairing.wrong_code',
          pairing: asked.pairing_id,
          origin: 'https://pdv.loja.example',
          attempts_left: 2,
        }),
        expect.objectContaining({ kind: 'pairing.approved', pairing: asked.pairing_id, client: done.client_id }),
        expect.objectContaining({ kind: 'pairing.rejected', pairing: refused.pairing_id, by: 'cashier' }),
        expect.objectContaining({ kind: 'client.blocked', origin: 'https://mau.example' }),
        expect.objectContaining({ kind: 'client.unblocked', origin: 'https://mau.example' }),
        expect.objectContaining({ kind: 'pairing.unlocked', wrong_codes: 1 }),
        expect.objectContaining({ kind: 'client.revoked', client: done.client_id, name: 'Caixa Auditado' }),
      ]),
    );
    const text = readFileSync(audit.path, 'utf8');
    expect(text).not.toContain(code);
    expect(text).not.toContain(done.token.slice(4));
  });
});
