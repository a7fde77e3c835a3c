// The job that polls one location for new low ratings (alerts/service.ts), named by the location's
// id; also what `location remove` deletes with the location's other records (locations/records).

export const POLL_KIND = 'alerts.poll';
export const pollKey = (locationId: string) => `${POLL_KIND}:${locationId}`;
