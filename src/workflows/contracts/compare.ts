import type { CompareInstanceInput, CompareInstanceRead } from '../../domain/compare/entity-compare';
import { defineWorkflow } from './define';

/** Reads every instance of a cross-instance compare (`compare-<databaseId>-<uuid>`). */
export const compareEntityWorkflow = defineWorkflow<(inputs: CompareInstanceInput[]) => Promise<CompareInstanceRead[]>>('compareEntityWorkflow');
