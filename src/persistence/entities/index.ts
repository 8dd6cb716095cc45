import { AppSettingSchema } from './app-setting';
import { InstanceSchema } from './instance';

export { AppSetting } from './app-setting';
export { Instance } from './instance';

export const ENTITIES = [InstanceSchema, AppSettingSchema];
