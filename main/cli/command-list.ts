/**
 * Every `pinbridge` command as the root help lists it — its name, whether it takes options, its
 * description — so that `pinbridge --help`, `--version` and a mistyped command are answered
 * without loading any command's module (main.ts loads only the one that runs). Each command's
 * module takes its description from here: one text for both.
 */

export interface CommandLine {
  /** Shown as "name [options]" in the root help (a command with subcommands takes none itself). */
  readonly options: boolean;
  readonly description: string;
}

/** In the root help's order. */
export const COMMAND_LINES = {
  start: {
    options: true,
    description:
      'Run the agent headless. Without --api (or with --training) it runs in training mode against an embedded sandbox, unless the settings name a payments API; ' +
      "without --port, $PINBRIDGE_PINPAD or the settings' pinpad.address it uses a simulated PINPAD. Pending transactions created elsewhere for the PINPAD are run as they appear. " +
      'Prints one JSON line when ready; logs go to stderr. Stop with Ctrl+C.',
  },
  pinpad: {
    options: false,
    description: 'Find and check PINPADs: list, identify, display a text, read a CPF, record a session.',
  },
  simulator: {
    options: true,
    description:
      'Serve a simulated ABECS PINPAD on a pseudo terminal (--pty) or over TCP (--tcp) until stopped. ' +
      'Prints one JSON line when ready: {"path": …} or {"host": …, "port": …}.',
  },
  sandbox: {
    options: true,
    description:
      'Serve the payments API sandbox (the whole contract, the terminal channel, webhooks) until stopped, over HTTP, or HTTPS ' +
      'with --tls-cert/--tls-key (and mutual TLS with --tls-ca). Prints one JSON line when ready: {"url", "marketplace_id", "seller_id", "token"}.',
  },
  journal: {
    options: false,
    description: 'Read the payment journal: list payments, show one with its history, export them for support.',
  },
  pay: {
    options: true,
    description:
      'Run one PINPAD payment end to end (journal, payments API, PINPAD). Without --api it uses the payments API the settings name ' +
      '(--settings, else ~/.pinbridge/settings.json; token from PINBRIDGE_API_TOKEN or ~/.pinbridge/api-token), as `start` does; ' +
      'without one, or with --training, an embedded sandbox (training mode, said in the output). ' +
      'Exit code 0 when approved, 1 when the payment ended without a sale.',
  },
  receipt: {
    options: false,
    description: "A payment's receipt from the journal: show it (text, ESC/POS, HTML, PDF) or print it.",
  },
  clients: {
    options: false,
    description:
      'The POS clients paired with this agent: list them, revoke one, block or unblock a web origin, unblock a program, unlock pairing after wrong codes.',
  },
  pos: {
    options: false,
    description: 'The POS API that POS software connects to over WebSocket.',
  },
  doctor: {
    options: true,
    description:
      'Check what Pinbridge needs on this computer: serial port permissions, PINPADs, printers, the payments API, the POS API ports ' +
      'and the settings file; each problem comes with the command that fixes it. Takes the options of `pinbridge start`, so its line can be pasted as it is ' +
      '(--journal and --headless are accepted and not used); without --api, the payments API the settings name is checked, with the stored token. Exit code 1 when a check failed.',
  },
  support: {
    options: false,
    description:
      'Make a support bundle: one .tar.gz with the doctor report, the recent logs, a PINPAD trace (--trace), the settings without secrets and the versions, card data and CPFs masked; ' +
      'with --upload, send it to support.upload_url once confirmed.',
  },
  'remote-settings': {
    options: false,
    description:
      "Signed remote settings: make the chain's key (keygen), sign a settings document (sign), pin the chain's public key on this checkout (pin), show what it follows (status).",
  },
  updates: {
    options: false,
    description:
      "The desktop app's staged updates: how this checkout's settings set them (feed, channel, its place in a staged rollout, the maintenance window), and a chain's rollout plan: which stores a release staged at a percentage reaches.",
  },
} as const satisfies Record<string, CommandLine>;

export type CommandName = keyof typeof COMMAND_LINES;

export const COMMAND_NAMES = Object.keys(COMMAND_LINES) as CommandName[];
