// Contact details never reach the logs whole (brief: secrets and personal data stay out of logs).

/** "+14155552671" → "+1•••••••671". */
export function maskPhone(phone: string): string {
  if (phone.length <= 5) return '•••';
  return `${phone.slice(0, 2)}${'•'.repeat(phone.length - 5)}${phone.slice(-3)}`;
}

/** "alice@example.com" → "a•••@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${email[0]}•••${email.slice(at)}`;
}
