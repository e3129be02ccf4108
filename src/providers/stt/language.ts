/* BCP-47 hints → the forms recognisers take. */

/** Regions assumed when a hint names only the language. */
const DEFAULT_REGION: Readonly<Record<string, string>> = {
  en: 'en-US',
  es: 'es-US',
  fr: 'fr-FR',
  de: 'de-DE',
  it: 'it-IT',
  pt: 'pt-BR',
  nl: 'nl-NL',
  ja: 'ja-JP',
  ko: 'ko-KR',
  zh: 'zh-CN',
  hi: 'hi-IN',
  ar: 'ar-SA',
  ru: 'ru-RU',
};

/** "en" → "en-US", "en-gb" → "en-GB"; undefined for a hint that is not a language tag. */
export function languageWithRegion(hint: string): string | undefined {
  const m = /^([a-z]{2,3})(?:[-_]([a-z]{2}))?(?:[-_].*)?$/i.exec(hint.trim());
  if (!m) return undefined;
  const lang = m[1]!.toLowerCase();
  return m[2] ? `${lang}-${m[2].toUpperCase()}` : DEFAULT_REGION[lang];
}

/** "en-US" → "en" (ISO 639-1, what OpenAI-style servers take). */
export function primaryLanguage(hint: string): string | undefined {
  const m = /^([a-z]{2,3})\b/i.exec(hint.trim());
  return m ? m[1]!.toLowerCase() : undefined;
}
