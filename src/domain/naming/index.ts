export * from './render';
export * from './preview';
