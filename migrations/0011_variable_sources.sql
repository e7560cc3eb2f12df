-- Data sources for platform variables (hand-written; see docs/ARCHITECTURE.md on migrations):
-- the sender's phone ({{salesRepPhone}}) and per-campaign promo code / offer expiry ({{promoCode}}, {{offerExpiration}}).
ALTER TABLE `users` ADD `phone` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `promo_code` text;--> statement-breakpoint
ALTER TABLE `campaigns` ADD `offer_expiration` text;
