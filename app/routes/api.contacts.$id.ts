import { changeContactApi, getContactApi } from "~/contacts/contacts-api.server";

export const loader = getContactApi;
export const action = changeContactApi;
