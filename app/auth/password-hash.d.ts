export declare const PBKDF2_ITERATIONS: number;
export declare function hashPassword(password: string, iterations?: number): Promise<string>;
export declare function verifyPassword(password: string, stored: string): Promise<boolean>;
