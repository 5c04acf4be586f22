export declare const STAMP: string;
export declare const BUILD_INPUTS: string[];
export declare function sourceFiles(root: string, roots: readonly string[]): string[];
export declare function builtFromCurrentSources(root: string): boolean;
