/** The simulated ABECS PINPAD: device, test cards, and the ways to reach it. */
export {
  PinpadSimulator,
  SIMULATED_COMMANDS,
  type AutoCustomerOptions,
  type PinpadSimulatorEvents,
  type PinpadSimulatorOptions,
  type SimulatorCardStatus,
  type SimulatorMediaFile,
} from './simulator.js';
export { SimulatorSession, type SimulatorSessionOptions } from './session.js';
export { fileCounterStore, memoryCounterStore, type DukptCounterStore } from './keys.js';
export {
  replayScript,
  type ReplayAnswer,
  type ReplayExchange,
  type ReplayTrace,
  type ReplayTraceEvent,
} from './replay.js';
export {
  KEY_LOADOUTS,
  KEY_LOADOUT_NAMES,
  SIMULATOR_PROFILES,
  SIMULATOR_PROFILE_NAMES,
  isKeyLoadoutName,
  isSimulatorProfileName,
  type KeyLoadout,
  type KeyLoadoutName,
  type SimulatorKeySlots,
  type SimulatorProfileName,
} from './profiles.js';
export type { MediaFormat } from './wire/commands/media.js';
export {
  DEFAULT_SIMULATOR_TIMINGS,
  type DisplayedImage,
  type DisplayState,
  type Presentation,
  type SimulatorTimings,
} from './state.js';
export { Keypad, type SimKey, type DigitKey, type FunctionKey } from './customer.js';
export {
  TEST_CARDS,
  TEST_CARD_NAMES,
  luhnValid,
  maskPan,
  resolveCard,
  validateCard,
  type CardBrand,
  type CardEntry,
  type CardOutcome,
  type IccFailure,
  type SimCard,
  type TestCardName,
} from './cards.js';
export { GCD_PROMPTS } from './handlers/basic.js';
export {
  SimulatorServerError,
  SocketTransport,
  startMemorySimulator,
  startPtySimulator,
  startTcpSimulator,
  type MemorySimulator,
  type PtySimulator,
  type PtySimulatorOptions,
  type TcpSimulator,
  type TcpSimulatorOptions,
} from './servers.js';
export { DeviceLink, DeviceLinkFaults, type DeviceLinkOptions } from './device-link.js';
export { createPtyPair, type PtyPair, type PtyPairOptions } from './socat.js';
