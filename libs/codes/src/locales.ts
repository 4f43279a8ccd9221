/** Document locales invoices can be rendered in (the languages Lago ships translations for). */
export const DOCUMENT_LOCALES: readonly string[] = [
  "en",
  "fr",
  "de",
  "es",
  "it",
  "nb",
  "pt-BR",
  "sv",
  "nl",
  "pl",
  "fi",
];
const localeSet = new Set(DOCUMENT_LOCALES);

export function isDocumentLocale(value: string): boolean {
  return localeSet.has(value);
}
