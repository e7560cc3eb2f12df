import { postOnly, sendAction } from "~/messaging/api-send.server";
import { sendManualEmailTest } from "~/messaging/send-requests.server";

export const loader = postOnly;
export const action = sendAction(sendManualEmailTest);
