/**
 * Emulators of Radarr, Sonarr and Lidarr for tests, benchmarks and the demo. See docs/emulators.md.
 */
export { startEmulator, FAKE_SECRET, type Emulator, type EmulatorOptions } from './server';
export { APP_FACTS, EMULATOR_APPS, isEmulatorApp, type EmulatorApp } from './apps';
export { FAULT_KINDS, type Fault, type FaultKind, type FaultSpec, type FaultInjector } from './faults';
export { type WriteMethod, type WriteRecord, type WriteRecorder } from './writes';
export { ENTITY_KINDS, type EntityKind } from './router';
export { type EmulatorState, type StoredQualityProfile, type StoredQualityDefinition } from './state';
export { type Failure as ValidationFailure } from './validation/failures';
export { EmulatorControlClient, type RemoteFault, type RemoteWrites } from './control-client';
