export declare const LAST_SUPERUSER: string;
