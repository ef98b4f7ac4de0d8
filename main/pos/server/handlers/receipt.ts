/** Receipts: one copy as text, HTML or ESC/POS; printing copies through the agent's queue. */
import { renderDocument } from '../../../receipts/receipts.js';
import { PosError } from '../../protocol/index.js';
import type { PosAgent } from '../agent.js';
import type { Handlers } from '../dispatch.js';
import { printJobView } from '../views.js';
import { assertMaySee } from '../payment-access.js';

function service(agent: PosAgent): NonNullable<PosAgent['receipts']> {
  if (agent.receipts === undefined)
    throw new PosError(
      'PRINTING_OFF',
      'Receipts are off: the settings have no store data ("receipts": {"merchant": …}).',
    );
  return agent.receipts;
}

export const receiptHandlers: Handlers<'receipt.get' | 'receipt.print'> = {
  'receipt.get': async ({ reference_id, copy, format = 'text', columns = 48, reprint }, { agent, session }) => {
    assertMaySee(agent, session, reference_id);
    const receipts = service(agent);
    const receipt = receipts.receipt(reference_id);
    const document = receipts.document(reference_id, copy, reprint === undefined ? {} : { reprint });
    const content = await renderDocument(document, format, { columns });
    return {
      reference_id: receipt.referenceId,
      copy,
      kind: receipt.kind,
      format,
      ...(typeof content === 'string'
        ? { encoding: 'utf8' as const, content }
        : { encoding: 'base64' as const, content: Buffer.from(content).toString('base64') }),
    };
  },

  'receipt.print': ({ reference_id, copies, printer }, { agent, session }) => {
    assertMaySee(agent, session, reference_id);
    if (printer !== undefined && !agent.printers.has(printer)) {
      const message = `No printer named "${printer}" is configured (settings: printers).`;
      throw new PosError('INVALID_PARAMS', message, { violations: [{ field: 'printer', message }] });
    }
    const jobs = service(agent).print(reference_id, {
      ...(copies === undefined ? {} : { copies }),
      ...(printer === undefined ? {} : { printer }),
    });
    return { jobs: jobs.map(printJobView) };
  },
};
