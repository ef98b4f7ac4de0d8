/**
 * `agent.status` (its handler: main/pos/server/handlers/agent.ts): the agent's PINPADs, printers,
 * payments API and pairing state.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Type } from 'typebox';
import { ApiHealth, DiskView, PinpadLinkView, PinpadView, PrinterView } from '../models.js';
import { method, NoParams } from '../method-spec.js';

export const AGENT_METHODS = {
  'agent.status': method({
    tag: 'agent',
    access: 'client',
    cost: 1,
    summary:
      'Everything at a glance: PINPADs, the link to the PINPAD in use, printers, the payments API, the disk, connected POS clients.',
    params: NoParams,
    result: Type.Object(
      {
        pinpads: Type.Array(PinpadView),
        pinpad_link: Type.Union([PinpadLinkView, Type.Null()], {
          description:
            'The link to the PINPAD Pinbridge is set to use: why `pinpads` is empty or its PINPAD disconnected (null: Pinbridge keeps none).',
        }),
        printers: Type.Array(PrinterView),
        api: ApiHealth,
        disk: DiskView,
        clients_connected: Type.Integer(),
      },
      { additionalProperties: false },
    ),
  }),
} as const;
