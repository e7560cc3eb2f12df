-- Issue 28: files an email carries (an appointment reminder's .ics invite), as JSON
-- [{"filename", "contentType", "content"}]. NULL on every other message: no index, nothing written where unused.
ALTER TABLE `messages` ADD `attachments` text;
