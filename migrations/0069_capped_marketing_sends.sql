-- Florida's and Oklahoma's 3 marketing texts per 24 hours (decision 061): the send consumer asks, per number, when it
-- was sent a capped text in the last 24 hours. This index answers with those rows alone (a seek on phone and sent_at),
-- not the number's whole history; a capped SMS pays one index entry, written when it is sent.
CREATE INDEX `messages_capped_sent_idx` ON `messages` (`phone`, `sent_at`)
WHERE sent_at IS NOT NULL AND direction = 'outbound' AND channel = 'sms'
	AND kind IN ('campaign', 'broadcast', 'quick', 'auto_followup');
