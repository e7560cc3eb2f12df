-- A campaign SMS step's picture (issue 28 item 3, decision 076): the PictureAttachment JSON (R2 key, type, size,
-- name) each of its messages carries as MMS; NULL for a text-only step.
ALTER TABLE `campaign_steps` ADD `picture` text;
