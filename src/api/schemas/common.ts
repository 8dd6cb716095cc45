import { ARR_TYPES } from '../../domain/arr-types';
import { z } from '../http/zod';

export const ArrTypeSchema = z.enum(ARR_TYPES).openapi('ArrType', { description: 'App family: movie_app (Radarr), series_app (Sonarr), music_app (Lidarr)' });
export const ArrTypeOrAllSchema = z.enum([...ARR_TYPES, 'all']).openapi('ArrTypeOrAll');
