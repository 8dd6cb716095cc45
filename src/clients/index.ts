export { AppRequestError, type AppHttpTarget } from './http';
export {
  ArrClient,
  RadarrClient,
  SonarrClient,
  LidarrClient,
  createArrClient,
  type AnyArrClient,
  type ArrConnection,
  type SystemStatus,
} from './arr-client';
export type * from '../domain/app-resources';
