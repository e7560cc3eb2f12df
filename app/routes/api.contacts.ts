import { createContactApi, listContactsApi } from "~/contacts/contacts-api.server";

export const loader = listContactsApi;
export const action = createContactApi;
