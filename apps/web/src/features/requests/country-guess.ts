// The country a person's phone numbers written without + are from: the one chosen last in the
// send form, else the region of the browser's language. No phone metadata here (the Recent
// requests page does not load it): whoever reads a number with it checks the code.

export const COUNTRY_STORAGE_KEY = 'review-desk.phone-country';

const CODE = /^[A-Z]{2}$/;

export function guessedCountry(): string | undefined {
  try {
    const stored = localStorage.getItem(COUNTRY_STORAGE_KEY);
    if (stored && CODE.test(stored)) return stored;
  } catch {
    // storage unavailable (private mode): fall through
  }
  for (const language of navigator.languages ?? [navigator.language]) {
    const region = language.split('-')[1]?.toUpperCase();
    if (region && CODE.test(region)) return region;
  }
  return undefined;
}
