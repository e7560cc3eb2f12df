/** Injected wherever time matters so tests can pin it. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
