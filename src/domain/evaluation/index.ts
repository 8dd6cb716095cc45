export * from './custom-formats';
export * from './scoring';
export * from './regex/translate';
export { RegexRefusal } from './regex/dotnet-syntax';
export type { ParsedRelease, ReleaseKind } from './release-parser';
export * from './regex/dialect';
export { DIALECT_DIFFERENCES, type DialectDifference } from './regex/dotnet-syntax';
