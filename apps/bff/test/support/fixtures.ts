// The dashboard users and the review request the BFF suites share.

/** A manager and a staff member, as an owner adds them (POST /bff/users) and as they sign in. */
export const MANAGER = { email: 'manager@example.com', password: 'manager-password-1234', role: 'manager' };
export const STAFF = { email: 'staff@example.com', password: 'staff-password-1234', role: 'staff' };

/** An SMS review request to a valid US number. */
export const SMS = { customerName: 'Ann Lee', customerPhone: '+14155552671', channel: 'sms' };
