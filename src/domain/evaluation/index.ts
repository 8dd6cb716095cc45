export * from './custom-formats';
export * from './scoring';
export * from './regex/translate';
export { RegexRefusal } from './regex/dotnet-syntax';
export type { ParsedRelease, ReleaseKind } from './release-parser';
