/**
 * EMV tables as a document: the AID and CAPK records an acquirer gives its PINPADs (ABECS 2.20
 * §4.1, abecs.md §3.13), versioned, with the application types a credit and a debit sale select
 * and, per acquirer, the key methods its host opens (`keys`: DUKPT, MK/WK with the working key it
 * issues, the random-key method with its RSA public key) or, in the short form, its DUKPT key
 * slots (`key_slots`). The same document is a store's tables
 * file (settings `pinpad.tables`) and the terminal channel's answer to
 * `GET …/terminals/{serial}/emv_tables` (docs/terminal-channel.md), so a provider that serves
 * tables and a technician who copies a file speak one format.
 *
 * This schema checks the document's shape; the ABECS layout of each field (lengths, digit
 * counts, the CAPK checksum) is checked when a record is encoded for TLR
 * (drivers/abecs/tables/records.ts), so a mistake is found when the document is read.
 */
import { Type, type Static } from 'typebox';

export const EMV_TABLES_FORMAT = 'pinbridge-emv-tables';

const Hex = (min: number, max: number, description: string) =>
  Type.String({ pattern: `^[0-9A-Fa-f]{${min},${max}}$`, description });
const Digits = (minimum: number, maximum: number, description: string) =>
  Type.Integer({ minimum, maximum, description });
const Amount = (description: string) =>
  Type.Integer({ minimum: 0, maximum: 999_999_999_999, description: `${description} In centavos.` });
const Acquirer = Type.Integer({ minimum: 1, maximum: 99, description: 'Acquirer index (TAB_ACQ), 1–99.' });
const RecordIndex = Type.String({
  pattern: '^[0-9]{2}$',
  description: 'Record index within the acquirer and table (TAB_RECIDX), "01"–"99".',
});

export const AidTableEntry = Type.Object(
  {
    table: Type.Literal('aid'),
    acquirer: Acquirer,
    record: RecordIndex,
    aid: Hex(10, 32, 'T1_AID: the application identifier, 5–16 bytes.'),
    applicationType: Digits(1, 98, 'T1_APPTYPE: the application type a sale selects (SPE_APPTYPE).'),
    label: Type.Optional(Type.String({ maxLength: 16, description: 'T1_DEFLABEL.' })),
    iccStandard: Type.Optional(Digits(0, 99, 'T1_ICCSTD (03 by default).')),
    applicationVersion1: Hex(4, 4, 'T1_APPVER1.'),
    applicationVersion2: Type.Optional(Hex(4, 4, 'T1_APPVER2.')),
    applicationVersion3: Type.Optional(Hex(4, 4, 'T1_APPVER3.')),
    terminalCountryCode: Digits(0, 999, 'T1_TRMCNTRY (76 for Brazil).'),
    transactionCurrencyCode: Digits(0, 999, 'T1_TRNCURR (986 for BRL).'),
    transactionCurrencyExponent: Digits(0, 9, 'T1_TRNCRREXP.'),
    merchantIdentifier: Type.Optional(Type.String({ maxLength: 15, description: 'T1_MERCHID.' })),
    merchantCategoryCode: Digits(0, 9999, 'T1_MCC.'),
    terminalIdentification: Type.Optional(Type.String({ maxLength: 8, description: 'T1_TRMID.' })),
    terminalCapabilities: Hex(6, 6, 'T1_TRMCAPAB (EMV 9F33).'),
    additionalTerminalCapabilities: Hex(10, 10, 'T1_ADDTRMCP (EMV 9F40).'),
    terminalType: Digits(0, 99, 'T1_TRMTYP (EMV 9F35).'),
    tacDefault: Hex(10, 10, 'T1_TACDEF.'),
    tacDenial: Hex(10, 10, 'T1_TACDEN.'),
    tacOnline: Hex(10, 10, 'T1_TACONL.'),
    floorLimit: Amount('T1_FLRLIMIT.'),
    transactionCategoryCode: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1, description: 'T1_TCC ("R" by default).' }),
    ),
    contactlessZeroAmount: Type.Optional(Type.String({ minLength: 1, maxLength: 1, description: 'T1_CTLSZEROAM.' })),
    contactlessMode: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1, description: 'T1_CTLSMODE ("0": no contactless).' }),
    ),
    contactlessTransactionLimit: Type.Optional(Amount('T1_CTLSTRNLIM.')),
    contactlessFloorLimit: Type.Optional(Amount('T1_CTLSFLRLIM.')),
    contactlessCvmLimit: Type.Optional(Amount('T1_CTLSCVMLIM.')),
    contactlessApplicationVersion: Type.Optional(Hex(4, 4, 'T1_CTLSAPPVER.')),
    tdol: Type.Optional(Hex(0, 40, 'T1_TDOLDEF.')),
    ddol: Type.Optional(Hex(0, 40, 'T1_DDOLDEF.')),
    offlineResponseCodes: Type.Optional(
      Type.String({ maxLength: 8, description: 'T1_ARCOFFLN ("Y1Z1Y3Z3" by default).' }),
    ),
    contactlessTacDefault: Type.Optional(Hex(10, 10, 'T1_CTLSTACDEF.')),
    contactlessTacDenial: Type.Optional(Hex(10, 10, 'T1_CTLSTACDEN.')),
    contactlessTacOnline: Type.Optional(Hex(10, 10, 'T1_CTLSTACONL.')),
    contactlessTerminalCapabilities: Type.Optional(Hex(6, 6, 'T1_CTLSTRMCP.')),
    mobileCvm: Type.Optional(Digits(0, 1, 'T1_MOBCVM.')),
    contactlessAdditionalTerminalCapabilities: Type.Optional(Hex(10, 10, 'T1_CTLSADDTC.')),
    contactlessMobileTransactionLimit: Type.Optional(Amount('T1_CTLSMBTLIM.')),
    contactlessIssuerScripts: Type.Optional(Digits(0, 1, 'T1_CTLSISSSCR.')),
  },
  { additionalProperties: false, title: 'AidTableEntry', description: 'An AID table record (S220 §4.1.1).' },
);

export const CapkTableEntry = Type.Object(
  {
    table: Type.Literal('capk'),
    acquirer: Acquirer,
    record: RecordIndex,
    rid: Hex(10, 10, 'T2_RID.'),
    capkIndex: Hex(2, 2, 'T2_CAPKIDX.'),
    exponent: Hex(2, 6, 'T2_EXP: 01 or 010001.'),
    modulus: Hex(2, 496, 'T2_MOD.'),
    checksumStatus: Type.Optional(Digits(0, 1, 'T2_CHKSTAT (1 by default).')),
    checksum: Type.Optional(
      Hex(40, 40, 'T2_CHECKSUM: SHA-1 of RID, index, modulus and exponent (computed when absent).'),
    ),
  },
  {
    additionalProperties: false,
    title: 'CapkTableEntry',
    description: 'A certification authority public key record (S220 §4.1.2).',
  },
);

export const RevokedCertificateTableEntry = Type.Object(
  {
    table: Type.Literal('revokedCertificate'),
    acquirer: Acquirer,
    record: RecordIndex,
    rid: Hex(10, 10, 'T3_RID.'),
    capkIndex: Hex(2, 2, 'T3_CAPKIDX.'),
    serialNumber: Hex(6, 6, 'T3_CERTSN.'),
  },
  {
    additionalProperties: false,
    title: 'RevokedCertificateTableEntry',
    description: 'A revoked issuer certificate (S220 §4.1.3).',
  },
);

export const EmvTableEntry = Type.Union([AidTableEntry, CapkTableEntry, RevokedCertificateTableEntry]);
export type EmvTableEntry = Static<typeof EmvTableEntry>;

const ApplicationTypes = Type.Array(Type.Integer({ minimum: 1, maximum: 98 }), { minItems: 1, maxItems: 10 });
const KeySlot = (what: string) =>
  Type.Integer({ minimum: 0, maximum: 99, description: `DUKPT slot of the ${what} key.` });
const MethodSlot = (description: string) => Type.Integer({ minimum: 0, maximum: 99, description });

/** DUKPT (ANSI X9.24-1:2009): the host derives each transaction's key from its BDK and the KSN the PINPAD sends. */
export const DukptKeyMethod = Type.Object(
  {
    method: Type.Literal('dukpt'),
    slot: MethodSlot(
      'The PINPAD slot (SPE_KEYIDX) of the DUKPT key: a PIN key (PP_DKPTTDESP) in `pin`, a data key (PP_DKPTTDESD) in `card_data`.',
    ),
  },
  {
    additionalProperties: false,
    title: 'DukptKeyMethod',
    description:
      'DUKPT TDES: card data under DAT#3 (GTK SPE_MTHDDAT "50"), the PIN under the PIN variant (GOX/GPN method 3).',
  },
);

/** MK/WK: the host issues a working key encrypted under the master key its key-loading device put in `slot`. */
export const MkwkKeyMethod = Type.Object(
  {
    method: Type.Literal('mkwk'),
    slot: MethodSlot(
      'The PINPAD slot (SPE_KEYIDX) of the TDES master key: a PIN master key (PP_MKTDESP) in `pin`, a data master key (PP_MKTDESD) in `card_data`.',
    ),
    working_key: Type.String({
      pattern: '^[0-9A-Fa-f]{32}$',
      description:
        "SPE_WKENC: the 16-byte TDES working key the host issues, encrypted (TDES ECB) under the slot's master key, in hex. The PINPAD opens it inside; it travels back in each authorization so the host knows which one sealed the data.",
    }),
  },
  {
    additionalProperties: false,
    title: 'MkwkKeyMethod',
    description:
      'Master key / working key TDES: card data with GTK SPE_MTHDDAT "10", the PIN with GOX/GPN method 1, both under the working key.',
  },
);

/** The random-key method (card data only): the PINPAD makes a TDES key per GTK and returns it under the host's RSA key. */
export const RandomKeyMethod = Type.Object(
  {
    method: Type.Literal('random_key'),
    key_id: Type.String({
      pattern: '^[\\x21-\\x7e]{1,64}$',
      description:
        "The host's name for this RSA key pair, sent back with each authorization so the host knows which private key opens the random key.",
    }),
    modulus: Type.String({
      pattern: '^[0-9A-Fa-f]{512}$',
      description: 'SPE_PBKMOD: the RSA-2048 public modulus, 256 bytes in hex (big-endian, top bit set).',
    }),
    exponent: Type.String({
      pattern: '^([0-9A-Fa-f]{2}){1,3}$',
      description: 'SPE_PBKEXP: the public exponent, 1 to 3 bytes in hex (010001 for 65537).',
    }),
  },
  {
    additionalProperties: false,
    title: 'RandomKeyMethod',
    description:
      'GTK SPE_MTHDDAT "90": TDES ECB under a random key KRAND the PINPAD makes for each card, returned RSA-encrypted (PKCS #1 v1.5 type 2) under this public key as PP_ENCKRAND. Needs no key in the PINPAD.',
  },
);

export const CardDataKeyMethod = Type.Union([DukptKeyMethod, MkwkKeyMethod, RandomKeyMethod], {
  title: 'CardDataKeyMethod',
  description: 'A way the host opens sealed card data, by `method`.',
});
export type CardDataKeyMethod = Static<typeof CardDataKeyMethod>;
export const PinKeyMethod = Type.Union([DukptKeyMethod, MkwkKeyMethod], {
  title: 'PinKeyMethod',
  description: 'A way the host opens online PIN blocks, by `method`.',
});
export type PinKeyMethod = Static<typeof PinKeyMethod>;

export const AcquirerKeys = Type.Object(
  {
    card_data: Type.Optional(
      Type.Array(CardDataKeyMethod, {
        minItems: 1,
        maxItems: 10,
        description:
          "How the host opens sealed card data, in the provider's order of preference: a sale uses the first one whose key the PINPAD holds (random_key needs none).",
      }),
    ),
    pin: Type.Optional(
      Type.Array(PinKeyMethod, {
        minItems: 1,
        maxItems: 10,
        description:
          "How the host opens online PIN blocks, in the provider's order of preference: a sale uses the first one whose key the PINPAD holds.",
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'AcquirerKeys',
    description:
      "The key methods this acquirer's host opens. A list given here replaces `key_slots` for its use (a document may not give both).",
  },
);
export type AcquirerKeys = Static<typeof AcquirerKeys>;

export const AcquirerSettings = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 40, description: 'The acquirer, for people (logs, the window).' })),
    key_slots: Type.Optional(
      Type.Object(
        { pin: Type.Optional(KeySlot('PIN (SPE_KEYIDX of GOX/GOC)')), data: Type.Optional(KeySlot('card data (GTK)')) },
        {
          additionalProperties: false,
          description:
            "Where this acquirer's DUKPT keys are in the PINPAD: the short form of `keys` with one DUKPT method each.",
        },
      ),
    ),
    keys: Type.Optional(AcquirerKeys),
  },
  { additionalProperties: false, title: 'AcquirerSettings' },
);
export type AcquirerSettings = Static<typeof AcquirerSettings>;

export const EmvTablesDocument = Type.Object(
  {
    format: Type.Literal(EMV_TABLES_FORMAT),
    version: Type.String({
      pattern: '^[\\x20-\\x7e]{1,10}$',
      description: 'The tables version the PINPAD stores (PP_TABVERnn), 1–10 printable characters.',
    }),
    source: Type.Optional(
      Type.String({ maxLength: 4000, description: 'Where the data comes from (the acquirer, a date).' }),
    ),
    payment_types: Type.Optional(
      Type.Object(
        { credit: Type.Optional(ApplicationTypes), debit: Type.Optional(ApplicationTypes) },
        {
          additionalProperties: false,
          description:
            'AID application types (T1_APPTYPE) a credit and a debit sale may select; 1 credit and 2 debit when absent.',
        },
      ),
    ),
    acquirers: Type.Optional(
      Type.Record(Type.String({ pattern: '^[0-9]{1,2}$' }), AcquirerSettings, {
        description:
          'Per acquirer index ("2" or "02"): its name and the key methods its host opens (`keys`), or its DUKPT key slots (`key_slots`). What neither gives is DUKPT in the settings\' slots (pinpad.key_slots), else 1.',
      }),
    ),
    entries: Type.Array(EmvTableEntry, {
      minItems: 1,
      maxItems: 2000,
      description: 'AID, CAPK and revoked-certificate records.',
    }),
  },
  { additionalProperties: false, title: 'EmvTablesDocument' },
);
export type EmvTablesDocument = Static<typeof EmvTablesDocument>;

/**
 * The terminal channel's answer: the tables for this PINPAD, or only their version when the
 * caller already holds it (`known_version`), so a check costs a few bytes.
 */
export const EmvTablesAnswer = Type.Object(
  {
    version: Type.String({ description: 'The version the provider serves for this PINPAD.' }),
    changed: Type.Boolean({ description: 'False when `known_version` is this version (`tables` is then absent).' }),
    tables: Type.Optional(EmvTablesDocument),
  },
  { additionalProperties: false, title: 'EmvTablesAnswer' },
);
export type EmvTablesAnswer = Static<typeof EmvTablesAnswer>;

export const EmvTablesQuery = Type.Object(
  {
    known_version: Type.Optional(
      Type.String({
        pattern: '^[\\x20-\\x7e]{1,10}$',
        description: 'The version the agent holds; the answer omits the tables when it is current.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type EmvTablesQuery = Static<typeof EmvTablesQuery>;
