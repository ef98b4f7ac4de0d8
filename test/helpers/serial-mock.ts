/**
 * serialport's mock binding (ports made with `MockBinding.createPort`), typed. The package's
 * `exports` hand an ES module importer a file without declarations, so its CommonJS entry, which
 * has them, is the one loaded here.
 */
import { createRequire } from 'node:module';
import type { MockBindingInterface } from '@serialport/binding-mock' with { 'resolution-mode': 'require' };

const mock = createRequire(import.meta.url)('@serialport/binding-mock') as { MockBinding: MockBindingInterface };

export const MockBinding: MockBindingInterface = mock.MockBinding;
