/** What the Settings page calls each field: every message about a field names it so. */
export const SETTINGS_FIELD_LABELS = {
  smsTemplate: 'SMS message',
  emailSubject: 'Email subject',
  emailTemplate: 'Email message',
  reminderAfterDays: 'Reminder',
  quietHours: 'Sending hours',
  'quietHours.start': 'From',
  'quietHours.end': 'Until',
  timeZone: 'Time zone',
  reviewSiteUrl: 'Review site address',
} as const;
