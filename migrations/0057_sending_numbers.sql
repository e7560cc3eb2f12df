-- Issue 27 item 3, a sending number per rep and the sticky sender (decision 045). Hand-written.
-- A user's own sending number: an E.164 Twilio number of the account or a Messaging Service SID (MG…); null = the
-- configured default. Unique: one number is one rep's, so a reply to it lands in one queue. The index is also how an
-- inbound reply's `To` finds its rep, and how the send consumer tells a contact's sticky sender is still in use.
ALTER TABLE `users` ADD `sms_sender` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `users_sms_sender_uq` ON `users` (`sms_sender`);
--> statement-breakpoint
-- The sticky sender: the number this contact was first texted from (written when that first SMS is accepted, or when
-- the contact first texts one of our numbers); later SMS go from it. Read with the contact's row, so no index.
ALTER TABLE `contacts` ADD `sms_sender` text;
