export * from './types';
export * from './links';
export * from './events';
export * from './render';
export * from './delivery';
export * from './flood-guard';
