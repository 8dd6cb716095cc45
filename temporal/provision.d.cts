export declare const CLI_MODULE: string;
export declare const CLI_VERSION: string;
export declare const TOOLS_BIN: string;
export interface FoundBinary {
  path: string;
  source: 'path' | 'tools' | 'installed';
}
export declare function findTemporalBinary(options?: { install?: boolean; log?: (message: string) => void }): FoundBinary | null;
export declare function readSearchAttributes(): Record<string, 'Text' | 'Keyword' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList'>;
export declare function readDynamicConfig(): Record<string, string>;
export interface DevServerOptions {
  port?: number;
  uiPort?: number;
  httpPort?: number;
  metricsPort?: number;
  dbFile?: string;
  headless?: boolean;
  ip?: string;
  /** Interface of the Web UI (the server's default: the same as ip). */
  uiIp?: string;
  /** Created at launch with the search attributes registered (default always exists). */
  namespaces?: string[];
}
export declare function devServerArgs(options?: DevServerOptions): string[];
