// Values tests/global-setup.ts `provide`s (read in workerd tests with `inject`, see tests/fakes/control.ts).
declare module "vitest" {
  export interface ProvidedContext {
    fakeTwilioUrl: string;
    fakeTwilioAccountSid: string;
    fakeTwilioAuthToken: string;
    fakeSendGridUrl: string;
    fakeSendGridApiKey: string;
    fakeOpenAiUrl: string;
    /** tests/fakes/fake-webhook-receiver.mjs */
    fakeWebhookReceiverUrl: string;
    /** tests/fakes/fake-push-service.mjs */
    fakePushServiceUrl: string;
    /** tests/fixtures/* by file name, base64. */
    fixtures: Record<string, string>;
  }
}

export {};
