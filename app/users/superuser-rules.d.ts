export declare const LAST_SUPERUSER: string;
export declare const HAND_OFF_REQUIRED: string;
export declare const HAND_OFF_INVALID: string;
