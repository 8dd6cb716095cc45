/**
 * Validation failures in the shape the apps return with HTTP 400: a JSON array of FluentValidation
 * ValidationFailure objects (camelCase, nulls omitted).
 */
export interface Failure {
  propertyName: string;
  errorMessage: string;
  attemptedValue?: unknown;
  severity: 'error' | 'warning' | 'info';
  errorCode?: string;
  formattedMessageArguments: unknown[];
  formattedMessagePlaceholderValues: Record<string, unknown>;
  /** Present on failures that went through NzbDroneValidationResult (specification validators). */
  isWarning?: boolean;
}

/** "MinUpgradeFormatScore" -> "Min Upgrade Format Score", as FluentValidation displays property names. */
export function displayName(propertyName: string): string {
  return propertyName.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
}

export function failure(
  propertyName: string,
  errorMessage: string,
  attemptedValue: unknown,
  errorCode?: string,
  placeholders: Record<string, unknown> = {},
): Failure {
  const result: Failure = {
    propertyName,
    errorMessage,
    severity: 'error',
    formattedMessageArguments: [],
    formattedMessagePlaceholderValues: {
      propertyName: displayName(propertyName),
      propertyValue: attemptedValue ?? null,
      ...placeholders,
    },
  };
  if (attemptedValue !== null && attemptedValue !== undefined) result.attemptedValue = attemptedValue;
  if (errorCode) result.errorCode = errorCode;
  return result;
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'boolean') return value === false;
  return false;
}

/** Common FluentValidation rules with their default messages and error codes. */
export const rules = {
  notEmpty(propertyName: string, value: unknown): Failure[] {
    return isEmpty(value)
      ? [failure(propertyName, `'${displayName(propertyName)}' must not be empty.`, value, 'NotEmptyValidator')]
      : [];
  },
  greaterThanOrEqual(propertyName: string, value: number, limit: number): Failure[] {
    return value >= limit
      ? []
      : [
          failure(propertyName, `'${displayName(propertyName)}' must be greater than or equal to '${limit}'.`, value, 'GreaterThanOrEqualValidator', {
            comparisonValue: limit,
          }),
        ];
  },
  greaterThan(propertyName: string, value: number, limit: number): Failure[] {
    return value > limit
      ? []
      : [failure(propertyName, `'${displayName(propertyName)}' must be greater than '${limit}'.`, value, 'GreaterThanValidator', { comparisonValue: limit })];
  },
  lessThanOrEqual(propertyName: string, value: number, limit: number): Failure[] {
    return value <= limit
      ? []
      : [
          failure(propertyName, `'${displayName(propertyName)}' must be less than or equal to '${limit}'.`, value, 'LessThanOrEqualValidator', {
            comparisonValue: limit,
          }),
        ];
  },
  /** A property validator with a custom message (PropertyValidator subclasses, Must(...).WithMessage). */
  custom(propertyName: string, ok: boolean, message: string, value: unknown, errorCode: string): Failure[] {
    return ok ? [] : [failure(propertyName, message, value, errorCode)];
  },
  /** context.AddFailure(message) from a RuleFor(x => x).Custom(...) rule. */
  objectLevel(message: string): Failure {
    return {
      propertyName: '',
      errorMessage: message,
      severity: 'error',
      formattedMessageArguments: [],
      formattedMessagePlaceholderValues: {},
    };
  },
};
