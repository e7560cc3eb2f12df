-- Issue 22 (decision 056): the conversation list reads its preview from the last message by primary key
-- (list-conversations), so the trigger that copied a changed text into the conversation — a write on every claim of
-- a campaign or broadcast message, whose text is rendered then — is no longer needed. The stored preview stays,
-- written with the conversation row by the insert trigger, for a last message archived out of D1. Hand-written.
DROP TRIGGER IF EXISTS `messages_conversation_au`;
