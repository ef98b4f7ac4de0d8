/**
 * The `pos` section of the settings file: where the POS API listens and, optionally, the TLS
 * certificate for wss:// (see docs/pos-api.md on when a web POS needs it).
 */
import { Type, type Static } from 'typebox';

export const PosSettings = Type.Object(
  {
    ports: Type.Optional(
      Type.Array(Type.Integer({ minimum: 1, maximum: 65535 }), {
        minItems: 1,
        maxItems: 10,
        description:
          'Ports tried in order until one is free (default 17301, 17302, 17303); POS clients try the same list.',
      }),
    ),
    share_payments: Type.Optional(
      Type.Boolean({
        description:
          "Let every paired POS client see and act on every payment (status, list, receipts, cancel, confirm, undo, events). Off by default: each POS sees only the payments it started; Pinbridge's window sees all. Turn on only when the POS clients are one system (the same software on several tills).",
      }),
    ),
    tls: Type.Optional(
      Type.Object(
        {
          cert_file: Type.String({
            minLength: 1,
            description:
              'PEM certificate for 127.0.0.1 and localhost, trusted on this machine (made by `pinbridge pos cert`, or mkcert).',
          }),
          key_file: Type.String({ minLength: 1, description: 'Its PEM private key.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'PosSettings' },
);
export type PosSettings = Static<typeof PosSettings>;
