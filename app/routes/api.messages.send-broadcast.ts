import { postOnly, sendAction } from "~/messaging/api-send.server";
import { sendBroadcast } from "~/messaging/create-broadcast.server";

export const loader = postOnly;
export const action = sendAction(sendBroadcast);
