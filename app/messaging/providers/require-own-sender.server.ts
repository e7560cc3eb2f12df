import { AppError } from "~/lib/app-error";
import { ProviderError, type SmsProvider } from "./provider";
import { isMessagingServiceSid } from "./twilio.server";

/**
 * With Twilio configured, refuses a sender that is not the account's own: a phone number must be one of its
 * IncomingPhoneNumbers, a Messaging Service SID one of its Messaging Services. Locally (no `ownsNumber`) any number
 * goes. `field` names the form field the message belongs beside.
 */
export async function requireOwnSender(sms: Pick<SmsProvider, "ownsNumber">, sender: string, field: string) {
  if (!sms.ownsNumber) return;
  let owned: boolean;
  try {
    owned = await sms.ownsNumber(sender);
  } catch (err) {
    const why = err instanceof ProviderError ? err.message : "no answer";
    throw new AppError("unavailable", `Could not check the number with Twilio (${why}); try again`, {
      field,
      cause: err,
    });
  }
  if (!owned) {
    const what = isMessagingServiceSid(sender) ? "a Messaging Service" : "a phone number";
    throw new AppError("validation", `${sender} is not ${what} in this Twilio account`, { field });
  }
}
