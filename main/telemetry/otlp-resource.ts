/**
 * Who sends: the OTLP resource attributes every batch carries, and the instrumentation scope.
 *
 * - `service.name` "pinbridge" and `service.version`: OpenTelemetry's semantic conventions, which
 *   every backend indexes (Jaeger's and Tempo's service list, Loki's `service_name`).
 * - `service.namespace` the chain and `service.instance.id` "chain/store/checkout": the
 *   conventions' way to tell the instances of one service apart, stable across restarts (so a
 *   checkout's traces stay one instance after an upgrade).
 * - `pinbridge.chain`, `pinbridge.store`, `pinbridge.checkout`: the same place as the Prometheus
 *   labels of the metrics (`chain`, `store`, `checkout`), to filter and group by store; the
 *   conventions have no attribute for a store or a checkout.
 * - `pinbridge.pinpad.serial`: the PINPAD (a payment's trace: the one it ran on; logs: the one
 *   attached, a list when several are). A peripheral, not the host: `device.id` is the host's.
 * - `deployment.environment.name`: training or live, so a chain keeps practice sales out of its
 *   numbers.
 *
 * Nothing of the computer (host name, user) and nothing of a customer.
 */
import type { Attributes } from './otlp-wire.js';

export interface OtlpIdentity {
  readonly version: string;
  readonly chain: string;
  readonly store: string;
  readonly checkout: string;
  readonly mode: 'training' | 'live';
}

/** The scope of everything the agent sends (its version: the agent is its own instrumentation). */
export const scopeOf = (identity: OtlpIdentity): { name: string; version: string } => ({
  name: 'pinbridge',
  version: identity.version,
});

/** The resource attributes, for the PINPAD(s) given (none: the attribute is left out). */
export function resourceOf(identity: OtlpIdentity, pinpads: readonly string[]): Attributes {
  return {
    'service.name': 'pinbridge',
    'service.version': identity.version,
    'service.namespace': identity.chain,
    'service.instance.id': `${identity.chain}/${identity.store}/${identity.checkout}`,
    'deployment.environment.name': identity.mode,
    'pinbridge.chain': identity.chain,
    'pinbridge.store': identity.store,
    'pinbridge.checkout': identity.checkout,
    'pinbridge.pinpad.serial': pinpads.length === 0 ? undefined : pinpads.length === 1 ? pinpads[0] : pinpads,
  };
}
