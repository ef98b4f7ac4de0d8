/**
 * The methods of the cashier's window alone (handlers in main/pos/server/handlers/operator.ts):
 * `session.operator` and every `operator.*` — pairing codes, paired clients, settings, API token,
 * supervisor, diagnostics.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Literals } from '../literals.js';
import { Type } from 'typebox';
import { SETTINGS_VIOLATION_CODES } from '../enums.js';
import {
  BlockedProgramView,
  ClientRecordView,
  PairingGuardView,
  PairingRequestView,
  PrintJobView,
  UpdateView,
} from '../models.js';
import { method, NoParams, Empty } from '../method-spec.js';

const SupervisorView = Type.Object(
  {
    required_for: Type.Union([Type.Literal('none'), Type.Literal('voids')]),
    min_amount_centavos: Type.Integer({ minimum: 0 }),
    entry: Type.Union([Type.Literal('window'), Type.Literal('pinpad'), Type.Literal('either')]),
    pos_voids: Type.Union([Type.Literal('trusted'), Type.Literal('pinpad')]),
    pin_set: Type.Boolean({
      description: 'A supervisor PIN is stored (its salted hash); the PIN itself is never sent back.',
    }),
    training_pin: Type.Boolean({
      description: 'Training mode: the training PIN (1234, which the simulated PINPAD types) is taken too.',
    }),
    locked_until: Type.Union([Type.String(), Type.Null()], {
      description:
        "Too many wrong PINs for the window's voids: every PIN is refused there until this ISO time; null when not locked.",
    }),
    pos_locked_until: Type.Union([Type.String(), Type.Null()], {
      description:
        "Too many wrong PINs for POS systems' voids (typed on the PINPAD): refused for them until this ISO time (the window's voids are counted apart); null when not locked.",
    }),
    tampered: Type.Boolean({
      description:
        'The supervisor PIN file was changed outside Pinbridge (its seal fails): every PIN is refused until the PIN is set again (operator.setSupervisorPin).',
    }),
  },
  { additionalProperties: false, title: 'SupervisorView' },
);

/** A settings mistake: its field, a stable code (REQUIRED, INVALID_CNPJ, INVALID_PINPAD_ADDRESS…), English and pt-BR. */
const Violation = Type.Object(
  {
    field: Type.String(),
    code: Literals(SETTINGS_VIOLATION_CODES),
    message: Type.String({ description: 'English.' }),
    cashier_message: Type.String({ description: 'pt-BR, as the window shows it next to the field.' }),
  },
  { additionalProperties: false, title: 'SettingsViolation' },
);

/** operator.settings' remote: the document the agent runs, the fields it governs, the last check and refusal. */
const RemoteSettingsView = Type.Object(
  {
    url: Type.String({ description: 'The url followed, placeholders filled.' }),
    key: Type.Union([Type.Literal('pinned'), Type.Literal('missing'), Type.Literal('unusable')], {
      description: "Whether the chain's public key is pinned (without one nothing is followed).",
    }),
    version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The version the agent runs; null: the local file alone.',
    }),
    document_url: Type.Union([Type.String(), Type.Null()]),
    trial: Type.Boolean({ description: 'Started on trial: not confirmed ready yet.' }),
    governed: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Each field the document sets (dotted path) and its value: the window shows them locked; operator.saveSettings refuses to change them (GOVERNED_REMOTELY).',
    }),
    pending_version: Type.Union([Type.Integer(), Type.Null()], {
      description: 'A newer version fetched and checked, waiting for an idle moment.',
    }),
    last_check: Type.Union([
      Type.Object(
        { at: Type.String(), outcome: Type.String(), message: Type.Union([Type.String(), Type.Null()]) },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
    last_refusal: Type.Union([
      Type.Object(
        {
          code: Type.String(),
          message: Type.String(),
          version: Type.Union([Type.Integer(), Type.Null()]),
          at: Type.String(),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ]),
  },
  { additionalProperties: false },
);

/** How a secret the window cannot read back is kept, and whether one is. */
const StoredSecret = Type.Object(
  {
    kind: Type.Union([Type.Literal('safeStorage'), Type.Literal('file'), Type.Literal('environment')]),
    stored: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const OPERATOR_METHODS = {
  'session.operator': method({
    tag: 'operator',
    access: 'public',
    cost: 20,
    summary:
      "Logs in Pinbridge's own window with the agent's operator key: it then sees every payment, the pairing codes and the paired clients.",
    description:
      'Only from a page the agent serves (its own origin) or a program on this computer; the key is in the `ui` address the agent prints when ready ' +
      '(and in ~/.pinbridge/operator.key). A wrong key is OPERATOR_ONLY.',
    params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object(
      {
        name: Type.Literal('Pinbridge'),
        version: Type.String(),
        mode: Type.Union([Type.Literal('training'), Type.Literal('live')]),
        time_zone: Type.String({
          description:
            "The store's IANA time zone (settings receipts.time_zone, else the computer's Brazilian zone, else America/Sao_Paulo): the window shows times and today's sales on this clock, as the receipts print them.",
        }),
        installments: Type.Object(
          {
            max: Type.Integer({ minimum: 1, description: 'Most installments a credit sale may have.' }),
            min_installment_amount: Type.Integer({
              minimum: 0,
              description:
                'Smallest installment, in centavos: an amount allows n installments while amount / n is at least this.',
            }),
          },
          {
            additionalProperties: false,
            description:
              "The installments in use (settings installments, else the defaults): what payment.start accepts, and what the window's test sale offers.",
          },
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.pairings': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary: 'The pairing requests waiting for their code, with the code to show the cashier.',
    params: NoParams,
    result: Type.Object({ pairings: Type.Array(PairingRequestView) }, { additionalProperties: false }),
  }),
  'operator.rejectPairing': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'The cashier refuses a pairing request: its code stops working.',
    params: Type.Object({ pairing_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: Empty,
  }),
  'operator.pairingGuard': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary: 'The wrong pairing codes of the last 24 hours, where they came from, and whether pairing is locked.',
    params: NoParams,
    result: PairingGuardView,
  }),
  'operator.unlockPairing': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary:
      'Unlocks pairing after too many wrong codes (block the origins that guessed first): the wrong codes so far stop counting.',
    params: NoParams,
    result: PairingGuardView,
  }),
  'operator.clients': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      'Every paired POS client (revoked ones too) with its open sessions, the blocked origins and the blocked programs.',
    params: NoParams,
    result: Type.Object(
      {
        clients: Type.Array(ClientRecordView),
        blocked_origins: Type.Array(
          Type.Object({ origin: Type.String(), blocked_at: Type.String() }, { additionalProperties: false }),
        ),
        blocked_programs: Type.Array(BlockedProgramView),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.revokeClient': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Revokes a POS client for good: its sessions are closed (4004) and its token stops working.',
    params: Type.Object({ client_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: ClientRecordView,
  }),
  'operator.blockOrigin': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Refuses every connection and pairing request from a web origin (its open sessions are closed).',
    params: Type.Object({ origin: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    result: Type.Object({ origin: Type.String() }, { additionalProperties: false }),
  }),
  'operator.unblockOrigin': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Allows a blocked web origin again.',
    params: Type.Object({ origin: Type.String({ minLength: 1, maxLength: 512 }) }, { additionalProperties: false }),
    result: Type.Object({ origin: Type.String() }, { additionalProperties: false }),
  }),
  'operator.blockProgram': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary:
      'Blocks the program behind a pairing request (a program on this computer, not a web page): its connections are closed at once (4005) and refused from then on, and its pending requests rejected.',
    description:
      'The program is what Pinbridge found behind the request (PairingRequest.program). A request from a web page is INVALID_STATE with reason WEB_PAGE ' +
      '(its program is the browser, with every other page in it: block the origin instead); one whose program could not be told is INVALID_STATE with ' +
      'reason PROGRAM_UNKNOWN; Pinbridge itself is INVALID_STATE with reason OWN_PROGRAM; an unknown request is NOT_FOUND.',
    params: Type.Object({ pairing_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: BlockedProgramView,
  }),
  'operator.unblockProgram': method({
    tag: 'operator',
    access: 'operator',
    cost: 2,
    summary: 'Allows a blocked program to connect again.',
    params: Type.Object({ program_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
    result: BlockedProgramView,
  }),
  'operator.settings': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      "The settings file as it is (docs/settings.md), the mistake the agent started despite, why the saved settings are not the ones in use (a restart that could not start with them), and how the API token and the client certificate's passphrase are kept.",
    params: NoParams,
    result: Type.Object(
      {
        path: Type.String(),
        settings: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
          description: "The file's JSON; null when there is none (defaults, training mode).",
        }),
        problem: Type.Union([
          Type.Object({ message: Type.String(), violations: Type.Array(Violation) }, { additionalProperties: false }),
          Type.Null(),
        ]),
        api_token: StoredSecret,
        certificate_passphrase: StoredSecret,
        supervisor_pin: Type.Object(
          {
            stored: Type.Boolean(),
            tampered: Type.Boolean({
              description:
                'The PIN file was changed outside Pinbridge: every PIN is refused until it is set again (operator.setSupervisorPin).',
            }),
          },
          { additionalProperties: false, description: 'Whether a supervisor PIN is stored (never the PIN).' },
        ),
        not_applied: Type.Union([Type.String(), Type.Null()], {
          description:
            'Why the agent does not run with the saved settings: the last restart could not start with them, and the previous ones run. null when it does.',
        }),
        remote: Type.Union([RemoteSettingsView, Type.Null()], {
          description:
            "The chain's signed settings this agent follows (docs/remote-settings.md); null when the settings name none.",
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.saveSettings': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      'Checks and writes the whole settings file; a mistake is INVALID_PARAMS with data.violations, each naming its field with a stable code (REQUIRED, INVALID_CNPJ, INVALID_PINPAD_ADDRESS…, docs/settings.md), the English and the pt-BR cashier_message (the file is then untouched). They apply when the agent restarts (operator.restart).',
    params: Type.Object({ settings: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
    result: Type.Object(
      { saved: Type.Literal(true), restart_required: Type.Literal(true) },
      { additionalProperties: false },
    ),
  }),
  'operator.restart': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Restarts the agent so the saved settings and API token apply: it answers, then every connection closes and the agent starts again from the settings file ' +
      '(the desktop app relaunches itself; headless keeps its address). Refused with BUSY (data.reason PAYMENT_IN_PROGRESS) while a PINPAD runs a payment or a prompt, ' +
      'and with INVALID_STATE (data.reason NO_RESTART) where the agent was started by something that cannot restart it.',
    params: NoParams,
    result: Type.Object({ restarting: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.updates': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      "The desktop app's updates: whether they are checked, on which channel, the version downloaded and when it installs (when Pinbridge quits, or in the maintenance window when no sale is in progress); event agent.update follows it.",
    params: NoParams,
    result: UpdateView,
  }),
  'operator.setApiToken': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      'Keeps the payments API token (encrypted by the OS in the desktop app); it is never sent back. Where the token comes from the environment variable PINBRIDGE_API_TOKEN (headless), it is refused with INVALID_STATE, data.reason SET_BY_ENVIRONMENT.',
    params: Type.Object({ token: Type.String({ minLength: 8, maxLength: 500 }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.setCertificatePassphrase': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      'Keeps the passphrase of the PKCS#12 client certificate the settings name (api.client_certificate.pfx), encrypted by the OS in the desktop app; it is never sent back. It applies when the agent restarts. Where it comes from the environment variable PINBRIDGE_CERT_PASSPHRASE, it is refused with INVALID_STATE, data.reason SET_BY_ENVIRONMENT.',
    params: Type.Object({ passphrase: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.setSupervisorPin': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      "Keeps the supervisor's PIN (4–8 digits) as a salted scrypt hash, sealed; it is never sent back nor logged. It applies at once (no restart), the wrong PINs counted so far stop counting, and a PIN file changed outside Pinbridge (operator.supervisor's tampered) is replaced: the store's way back.",
    params: Type.Object({ pin: Type.String({ pattern: '^[0-9]{4,8}$' }) }, { additionalProperties: false }),
    result: Type.Object({ stored: Type.Literal(true) }, { additionalProperties: false }),
  }),
  'operator.supervisor': method({
    tag: 'operator',
    access: 'operator',
    cost: 1,
    summary:
      'When a void needs the supervisor in the settings in use (not the saved file), whether a PIN is set, and whether wrong PINs locked it.',
    params: NoParams,
    result: SupervisorView,
  }),
  'operator.doctor': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Runs `pinbridge doctor` (settings, serial permissions, PINPADs, printers, payments API, ports, the disk and the log file): each check with its fix.',
    params: NoParams,
    result: Type.Object(
      {
        ok: Type.Boolean(),
        checks: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              status: Type.Union([
                Type.Literal('ok'),
                Type.Literal('warn'),
                Type.Literal('fail'),
                Type.Literal('skip'),
              ]),
              summary: Type.String(),
              details: Type.Record(Type.String(), Type.Unknown()),
              fix: Type.Optional(Type.String()),
              pt: Type.Object(
                { summary: Type.String(), fix: Type.Optional(Type.String()) },
                {
                  additionalProperties: false,
                  description:
                    'The summary and the fix in Brazilian Portuguese (the window shows them in pt-BR); fix exactly when the English one is there.',
                },
              ),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.exportLogs': method({
    tag: 'operator',
    access: 'operator',
    cost: 10,
    summary:
      "The agent's recent log lines for support: they hold no card data, and anything card-like is masked again in any disguise (first 6 / last 4; a track or an encoded number removed). When the log file cannot be written, the lines it missed come from memory and `not_written` says why.",
    params: Type.Object(
      { max_lines: Type.Optional(Type.Integer({ minimum: 1, maximum: 20_000, default: 2_000 })) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        file: Type.Union([Type.String(), Type.Null()], {
          description: 'The log file; null when this agent logs to the terminal only.',
        }),
        text: Type.String(),
        lines: Type.Integer({ minimum: 0 }),
        masked: Type.Integer({ minimum: 0, description: 'Card-like values masked in this export (expected 0).' }),
        not_written: Type.Union(
          [
            Type.Object(
              {
                code: Type.String({ description: 'Why: ENOSPC (the disk is full), EROFS, EIO…' }),
                message: Type.String(),
                since: Type.String({ format: 'date-time' }),
                unwritten: Type.Integer({ minimum: 0, description: 'Lines the file missed since.' }),
              },
              { additionalProperties: false },
            ),
            Type.Null(),
          ],
          {
            description:
              'The log file is not being written (a full or read-only disk): the lines it missed are kept in memory — the newest few hundred, at the end of `text` — and written to it once it can be. Null while it is written.',
          },
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.supportBundle': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      "Makes a support bundle, as `pinbridge support bundle` does, in the running agent: one .tar.gz with its doctor's report, its recent logs, the last PINPAD trace it kept (~/.pinbridge/traces/), the settings without secrets and the versions, with a manifest.json of sizes and SHA-256s. Card data and CPFs are masked and every file checked by the card-data scanner; a bundle in which card data is still found is not made (INVALID_STATE, reason BUNDLE_HAS_CARD_DATA). Nothing is sent: see operator.sendSupportBundle.",
    description:
      'Saved in ~/.pinbridge/support/ (the newest 5 kept). A disk that cannot take it costs the file only: `file` is null, `not_saved` says why (English and pt-BR), and the archive is still in the answer and can still be sent.',
    params: NoParams,
    result: Type.Object(
      {
        id: Type.String({
          description: "The archive's name, pinbridge-support-<time>.tar.gz: what operator.sendSupportBundle sends.",
        }),
        created_at: Type.String({ format: 'date-time' }),
        file: Type.Union([Type.String(), Type.Null()], {
          description: 'Where it was saved; null when it could not be.',
        }),
        not_saved: Type.Union(
          [
            Type.Object(
              {
                code: Type.String({ description: 'ENOSPC (the disk is full), EROFS, EACCES…' }),
                message: Type.String({ description: 'English.' }),
                cashier_message: Type.String({ description: 'pt-BR, as the window shows it.' }),
              },
              { additionalProperties: false },
            ),
            Type.Null(),
          ],
          { description: 'Why the bundle is not on disk; null when it was saved.' },
        ),
        bytes: Type.Integer({ minimum: 0 }),
        sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
        files: Type.Array(
          Type.Object({ name: Type.String(), size: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
          { description: 'The files inside, after manifest.json.' },
        ),
        archive_base64: Type.String({
          description: 'The .tar.gz itself (base64), for the window to offer as a download.',
        }),
        upload_to: Type.Union([Type.String(), Type.Null()], {
          description:
            "Where operator.sendSupportBundle would send it (support.upload_url's origin); null when none is set.",
        }),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.sendSupportBundle': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      "Sends the last support bundle made (operator.supportBundle) to the settings' support.upload_url, one HTTP PUT of the archive, once the cashier confirmed in the window: `confirmed` must be true. A failed send is an answer (sent false, with the reason in English and pt-BR), not an error.",
    description:
      'No support.upload_url in the settings in use is INVALID_STATE with reason NO_UPLOAD_URL; a bundle other than the last one made is NOT_FOUND with reason BUNDLE_UNKNOWN. The send runs on its own, off any payment.',
    params: Type.Object(
      {
        bundle_id: Type.String({ pattern: '^pinbridge-support-[0-9TZ-]+\\.tar\\.gz$', maxLength: 80 }),
        confirmed: Type.Literal(true, { description: 'The cashier said yes to what is sent and where.' }),
      },
      { additionalProperties: false },
    ),
    result: Type.Union([
      Type.Object(
        { sent: Type.Literal(true), to: Type.String(), status: Type.Integer() },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          sent: Type.Literal(false),
          to: Type.String(),
          code: Type.Literal('UPLOAD_FAILED'),
          reason: Type.Union([
            Type.Literal('bad_url'),
            Type.Literal('unreachable'),
            Type.Literal('timeout'),
            Type.Literal('refused'),
          ]),
          message: Type.String({ description: 'English.' }),
          cashier_message: Type.String({ description: 'pt-BR, as the window shows it.' }),
        },
        { additionalProperties: false },
      ),
    ]),
  }),
  'operator.testPrint': method({
    tag: 'operator',
    access: 'operator',
    cost: 10,
    summary:
      'Prints the test slip on a receipt printer (accents, full-width rule, QR code), to check it from the settings.',
    params: Type.Object(
      {
        printer: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 32,
            description: 'The printer\'s name in the settings (default "default").',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: PrintJobView,
  }),
  'operator.scanBle': method({
    tag: 'operator',
    access: 'operator',
    cost: 20,
    summary:
      'Listens for Bluetooth LE PINPADs (the serial-over-BLE service) for a few seconds; each address is ready for the PINPAD setting.',
    params: Type.Object(
      { seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 5 })) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        devices: Type.Array(
          Type.Object(
            {
              address: Type.String({ description: 'ble:<id>' }),
              name: Type.Union([Type.String(), Type.Null()]),
              rssi: Type.Integer(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.systemPrinters': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary:
      "The operating system's printers, each with the lp://NAME address the printer setting takes (the desktop app prints them at the receipt's own size).",
    params: NoParams,
    result: Type.Object(
      {
        printers: Type.Array(
          Type.Object(
            { address: Type.String(), name: Type.String(), is_default: Type.Boolean() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
  'operator.detectPinpads': method({
    tag: 'operator',
    access: 'operator',
    cost: 5,
    summary: 'Serial ports that look like PINPADs, for the PINPAD setting (only an ABECS exchange proves one is).',
    params: NoParams,
    result: Type.Object(
      {
        ports: Type.Array(
          Type.Object(
            {
              address: Type.String(),
              maker: Type.Union([Type.String(), Type.Null()]),
              model: Type.Union([Type.String(), Type.Null()]),
              manufacturer: Type.Union([Type.String(), Type.Null()]),
              likely_pinpad: Type.Boolean(),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  }),
} as const;
