// A business's settings: GET/PUT /api/v1/settings, the words of its messages, its sending
// window (`quietHoursFor`, what scheduling reads) and its reminder.
export { type OpenedSettings, openSettings } from './open.ts';
export { createSettingsService, type SettingsDefaults, type SettingsService } from './service.ts';
