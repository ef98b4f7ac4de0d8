/**
 * The `support` section of the settings file: where `pinbridge support bundle --upload` and the
 * window's "Enviar ao suporte" send a bundle (main/support/upload.ts) — over HTTPS only; plain HTTP only to this computer (127.0.0.1,
 * ::1, localhost), for tests.
 */
import { Type, type Static } from 'typebox';

export const SupportSettings = Type.Object(
  {
    upload_url: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'Where `pinbridge support bundle --upload` and the window\'s "Enviar ao suporte" send the support bundle (an HTTP PUT of the .tar.gz), after the person at the keyboard confirms. https:// only (plain http only to 127.0.0.1 or localhost).',
      }),
    ),
  },
  { additionalProperties: false, description: 'Support bundles (docs/fleet.md, Support bundle).' },
);
export type SupportSettings = Static<typeof SupportSettings>;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Why `url` cannot receive a bundle, or undefined. */
export function uploadUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL (https://…)';
  }
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)) return undefined;
  return 'must be https:// (plain http only to 127.0.0.1 or localhost)';
}
