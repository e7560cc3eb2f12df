export declare const MIN_PASSWORD_LENGTH: number;
export declare const MAX_PASSWORD_LENGTH: number;
export declare const PASSWORD_TOO_SHORT: string;
export declare const PASSWORD_TOO_LONG: string;
export declare function passwordProblem(password: unknown): string | null;
