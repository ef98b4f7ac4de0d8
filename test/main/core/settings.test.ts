import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../main/core/engine.js';
import { DEFAULT_SALE_TIMEOUTS } from '../../../main/pinpad/sale-session.js';
import {
  DEFAULT_PENDING_POLL_MS,
  resolveSettings,
  SettingsError,
  settingsViolations,
} from '../../../main/core/settings.js';
import { thrown } from '../../helpers/thrown.js';

describe('payment settings', () => {
  it('fill in the defaults for everything left out, with pending transactions polled every 5 s', () => {
    const resolved = resolveSettings({});
    expect(resolved.engine).toEqual({ ...DEFAULT_ENGINE_CONFIG, pendingPollMs: DEFAULT_PENDING_POLL_MS });
    expect(resolved.sale).toEqual(DEFAULT_SALE_TIMEOUTS);
    expect(DEFAULT_PENDING_POLL_MS).toBe(5_000);
  });

  it('set every time limit of a payment: the API, each PINPAD prompt, lost answers, the undo queue', () => {
    const resolved = resolveSettings({
      confirmation: 'pos',
      confirmation_deadline_ms: 120_000,
      installments: { max: 6, min_installment_amount: 1_000 },
      pending_poll_ms: 0,
      timeouts: {
        api_ms: 15_000,
        card_ms: 90_000,
        pin_ms: 45_000,
        menu_ms: 20_000,
        removal_ms: 10_000,
        unknown_attempts: 5,
        unknown_delay_ms: 2_000,
        undo_retry_base_ms: 1_000,
        undo_retry_max_ms: 60_000,
        recovery_retry_base_ms: 500,
        recovery_retry_max_ms: 20_000,
      },
    });
    expect(resolved.engine).toEqual({
      confirmation: 'pos',
      confirmationDeadlineMs: 120_000,
      installments: { max: 6, minInstallmentAmount: 1_000 },
      apiTimeoutMs: 15_000,
      unknownResolution: { attempts: 5, delayMs: 2_000 },
      undoRetry: { baseMs: 1_000, maxMs: 60_000 },
      pendingPollMs: 0,
      recoveryRetry: { baseMs: 500, maxMs: 20_000 },
      // Not a setting: longer than the largest limits above allow a sale to take.
      orphanAfterMs: 3_600_000,
    });
    expect(resolved.sale).toEqual({ cardMs: 90_000, pinMs: 45_000, menuMs: 20_000, removalMs: 10_000 });
  });

  it('refuse bad values with the field, a sentence and where they came from', () => {
    const error = thrown(() =>
      resolveSettings(
        { confirmation: 'later', timeouts: { card_ms: 100, pin_ms: '60s' }, colour: 'blue' },
        '/etc/pinbridge.json',
      ),
    );
    expect(error).toBeInstanceOf(SettingsError);
    const settingsError = error as SettingsError;
    expect(settingsError.code).toBe('INVALID_SETTINGS');
    expect(settingsError.message).toMatch(/^Invalid settings in \/etc\/pinbridge\.json: /);
    const fields = settingsError.violations.map((v) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['confirmation', 'timeouts.card_ms', 'timeouts.pin_ms']));
    expect(fields.some((field) => field.includes('colour'))).toBe(true);
    expect(settingsError.violations.every((v) => v.message.length > 0)).toBe(true);
  });

  it('refuse a settings file that is not an object, and an undo or recovery backoff that starts above its ceiling', () => {
    expect(settingsViolations([])).not.toEqual([]);
    expect(settingsViolations(null)).not.toEqual([]);
    expect(settingsViolations({ timeouts: { undo_retry_base_ms: 90_000, undo_retry_max_ms: 60_000 } })).toEqual([
      {
        field: 'timeouts.undo_retry_base_ms',
        code: 'INCONSISTENT',
        message: 'must not be greater than timeouts.undo_retry_max_ms',
        cashier_message: expect.stringContaining('o mínimo não pode passar do máximo') as unknown,
      },
    ]);
    expect(settingsViolations({ timeouts: { recovery_retry_base_ms: 40_000, recovery_retry_max_ms: 30_000 } })).toEqual(
      [
        {
          field: 'timeouts.recovery_retry_base_ms',
          code: 'INCONSISTENT',
          message: 'must not be greater than timeouts.recovery_retry_max_ms',
          cashier_message: expect.stringContaining('o mínimo não pode passar do máximo') as unknown,
        },
      ],
    );
  });

  it('keep a lone recovery ceiling below the default start, and a lone start above the default ceiling, consistent', () => {
    expect(resolveSettings({ timeouts: { recovery_retry_max_ms: 1_000 } }).engine.recoveryRetry).toEqual({
      baseMs: 1_000,
      maxMs: 1_000,
    });
    expect(resolveSettings({ timeouts: { recovery_retry_base_ms: 50_000 } }).engine.recoveryRetry).toEqual({
      baseMs: 50_000,
      maxMs: 50_000,
    });
    expect(resolveSettings({}).engine.recoveryRetry).toEqual({ baseMs: 1_000, maxMs: 30_000 });
  });
});
