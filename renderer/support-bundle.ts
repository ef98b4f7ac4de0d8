/**
 * The support page's "Gerar pacote de suporte": the agent makes the bundle (operator.supportBundle:
 * its doctor, logs, last PINPAD trace, settings without secrets, versions — card data and CPFs
 * masked and scanned), the window says where it was saved (or why it could not be, with the archive
 * still offered) and offers it as a download. Where the settings name support.upload_url, "Enviar
 * ao suporte" sends it (operator.sendSupportBundle) — only after the confirmation dialog, which says
 * what goes and where — and the answer is said: sent, or not sent and why, in the window's language.
 */
import type { ResultOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { confirmAction } from './dialog.js';
import { byId } from './dom.js';
import { currentLanguage, formatTime, t } from './i18n.js';

type MadeBundle = ResultOf<'operator.supportBundle'>;
type SendOutcome = ResultOf<'operator.sendSupportBundle'>;

/** The agent's doctor takes up to its checks' time limits, then the bundle a few seconds. */
const MAKE_TIMEOUT_MS = 120_000;
/** The agent gives up an upload after 30 s. */
const SEND_TIMEOUT_MS = 45_000;

function sizeText(bytes: number): string {
  const number = (value: number): string => value.toLocaleString(currentLanguage(), { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024)} KB`;
  return `${number(bytes / (1024 * 1024))} MB`;
}

function archiveOf(base64: string): Blob {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: 'application/gzip' });
}

export class SupportBundleCard {
  readonly #context: WindowContext;
  #bundle: MadeBundle | null = null;
  #madeAt = '';
  #outcome: { readonly state: 'sending' | 'sent' | 'failed' | 'cancelled'; readonly text: string } | null = null;
  #making = false;
  #downloadUrl: string | null = null;

  readonly #make = byId<HTMLButtonElement>('support-bundle-make');
  readonly #download = byId<HTMLAnchorElement>('support-bundle-download');
  readonly #send = byId<HTMLButtonElement>('support-bundle-send');
  readonly #status = byId('support-bundle-status');
  readonly #upload = byId('support-bundle-upload');
  readonly #error = byId('support-bundle-error');

  constructor(context: WindowContext) {
    this.#context = context;
    this.#make.addEventListener('click', () => void this.#makeBundle());
    this.#send.addEventListener('click', () => void this.#sendBundle());
  }

  async #makeBundle(): Promise<void> {
    if (this.#making) return;
    this.#making = true;
    this.#error.textContent = '';
    this.#outcome = null;
    this.render();
    try {
      const bundle = await this.#context.client.call('operator.supportBundle', {}, { timeoutMs: MAKE_TIMEOUT_MS });
      this.#bundle = bundle;
      this.#madeAt = bundle.created_at;
      if (this.#downloadUrl !== null) URL.revokeObjectURL(this.#downloadUrl);
      this.#downloadUrl = URL.createObjectURL(archiveOf(bundle.archive_base64));
    } catch (error) {
      this.#error.textContent = errorText(error);
    } finally {
      this.#making = false;
      this.render();
      this.#status.scrollIntoView({ block: 'nearest' });
    }
  }

  async #sendBundle(): Promise<void> {
    const bundle = this.#bundle;
    if (bundle === null || bundle.upload_to === null || this.#outcome?.state === 'sending') return;
    const to = bundle.upload_to;
    const yes = await confirmAction({
      title: t('support.bundleConfirmTitle'),
      text: t('support.bundleConfirmText', { name: bundle.id, size: sizeText(bundle.bytes), to }),
      confirm: t('support.bundleConfirmYes'),
    });
    if (!yes) {
      this.#outcome = { state: 'cancelled', text: t('support.bundleCancelled') };
      this.render();
      return;
    }
    this.#error.textContent = '';
    this.#outcome = { state: 'sending', text: t('support.bundleSending', { to }) };
    this.render();
    try {
      const sent: SendOutcome = await this.#context.client.call(
        'operator.sendSupportBundle',
        { bundle_id: bundle.id, confirmed: true },
        { timeoutMs: SEND_TIMEOUT_MS },
      );
      this.#outcome = sent.sent
        ? { state: 'sent', text: t('support.bundleSent', { to: sent.to, time: formatTime(new Date().toISOString()) }) }
        : {
            state: 'failed',
            text: t('support.bundleNotSent', {
              reason: currentLanguage() === 'pt-BR' ? sent.cashier_message : sent.message,
            }),
          };
    } catch (error) {
      this.#outcome = { state: 'failed', text: t('support.bundleNotSent', { reason: errorText(error) }) };
    } finally {
      this.render();
      this.#upload.scrollIntoView({ block: 'nearest' });
    }
  }

  render(): void {
    const bundle = this.#bundle;
    this.#make.disabled = this.#making;
    this.#status.dataset.state = this.#making
      ? 'making'
      : bundle === null
        ? 'none'
        : bundle.file === null
          ? 'not-saved'
          : 'saved';
    if (this.#making) this.#status.textContent = t('support.bundleMaking');
    else if (bundle !== null) {
      const facts = {
        time: formatTime(this.#madeAt),
        size: sizeText(bundle.bytes),
        files: bundle.files.length + 1,
      };
      const reason =
        bundle.not_saved === null
          ? ''
          : currentLanguage() === 'pt-BR'
            ? bundle.not_saved.cashier_message
            : bundle.not_saved.message;
      this.#status.textContent =
        bundle.file === null
          ? t('support.bundleNotSaved', { ...facts, reason })
          : t('support.bundleSaved', { ...facts, file: bundle.file });
    } else this.#status.textContent = '';
    const ready = bundle !== null && !this.#making;
    this.#download.hidden = !ready || this.#downloadUrl === null;
    if (this.#downloadUrl !== null) this.#download.href = this.#downloadUrl;
    this.#download.download = bundle?.id ?? '';
    this.#send.hidden = !ready || bundle.upload_to === null;
    this.#send.disabled = this.#outcome?.state === 'sending';
    const outcome = this.#outcome;
    this.#upload.dataset.state = outcome?.state ?? (ready && bundle.upload_to === null ? 'no-upload' : 'none');
    // A send that failed reads as a failure to a screen reader too, not only in colour.
    this.#upload.dataset.tone = outcome?.state === 'failed' ? 'bad' : outcome?.state === 'sent' ? 'ok' : '';
    this.#upload.textContent =
      outcome !== null ? outcome.text : ready && bundle.upload_to === null ? t('support.bundleNoUpload') : '';
  }
}
