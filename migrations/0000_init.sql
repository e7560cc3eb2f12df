CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`role` text DEFAULT 'user' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`last_login_at` integer,
	`login_count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_uq` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_created_at_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`ip_address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_id_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_at_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `login_history` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`email` text NOT NULL,
	`ip_address` text,
	`user_agent` text,
	`success` integer NOT NULL,
	`failure_reason` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `login_history_user_id_created_at_idx` ON `login_history` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_history_email_created_at_idx` ON `login_history` (`email`,`created_at`);--> statement-breakpoint
CREATE INDEX `login_history_ip_created_at_idx` ON `login_history` (`ip_address`,`created_at`);--> statement-breakpoint
CREATE TABLE `activity_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`action` text NOT NULL,
	`details` text,
	`ip_address` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `activity_log_created_at_idx` ON `activity_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `activity_log_user_id_created_at_idx` ON `activity_log` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`first_name` text NOT NULL,
	`last_name` text NOT NULL,
	`phone` text NOT NULL,
	`email` text,
	`company` text,
	`address` text,
	`city` text,
	`state` text,
	`zip_code` text,
	`time_zone` text,
	`sendable` integer DEFAULT true NOT NULL,
	`unsendable_reason` text,
	`opted_out_at` integer,
	`opted_out_source` text,
	`email_unsubscribed_at` integer,
	`consent_source` text,
	`consent_at` integer,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_phone_uq` ON `contacts` (`phone`);--> statement-breakpoint
CREATE INDEX `contacts_email_idx` ON `contacts` (`email`);--> statement-breakpoint
CREATE INDEX `contacts_last_name_idx` ON `contacts` (`last_name`,`first_name`);--> statement-breakpoint
CREATE INDEX `contacts_company_idx` ON `contacts` (`company`);--> statement-breakpoint
CREATE INDEX `contacts_created_at_idx` ON `contacts` (`created_at`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`status` text DEFAULT 'draft' NOT NULL,
	`scheduled_at` integer,
	`start_date` integer,
	`contact_count` integer DEFAULT 0 NOT NULL,
	`sent_count` integer DEFAULT 0 NOT NULL,
	`delivered_count` integer DEFAULT 0 NOT NULL,
	`response_count` integer DEFAULT 0 NOT NULL,
	`created_by` integer,
	`started_at` integer,
	`completed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaigns_created_at_idx` ON `campaigns` (`created_at`);--> statement-breakpoint
CREATE INDEX `campaigns_status_idx` ON `campaigns` (`status`);--> statement-breakpoint
CREATE TABLE `campaign_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`step_number` integer NOT NULL,
	`name` text NOT NULL,
	`message_type` text DEFAULT 'sms' NOT NULL,
	`subject` text,
	`content` text NOT NULL,
	`delay_days` integer DEFAULT 0 NOT NULL,
	`delay_hours` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_steps_campaign_step_uq` ON `campaign_steps` (`campaign_id`,`step_number`);--> statement-breakpoint
CREATE TABLE `campaign_enrollments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`next_step_number` integer DEFAULT 1 NOT NULL,
	`next_run_at` integer,
	`last_sent_at` integer,
	`stop_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_enrollments_campaign_contact_uq` ON `campaign_enrollments` (`campaign_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `campaign_enrollments_due_idx` ON `campaign_enrollments` (`status`,`next_run_at`);--> statement-breakpoint
CREATE INDEX `campaign_enrollments_contact_idx` ON `campaign_enrollments` (`contact_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text DEFAULT 'sms' NOT NULL,
	`direction` text NOT NULL,
	`status` text NOT NULL,
	`contact_id` integer,
	`campaign_id` integer,
	`step_id` integer,
	`enrollment_id` integer,
	`broadcast_id` integer,
	`phone` text,
	`email` text,
	`from_address` text,
	`subject` text,
	`content` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`twilio_sid` text,
	`provider` text,
	`is_marketing` integer DEFAULT true NOT NULL,
	`is_test` integer DEFAULT false NOT NULL,
	`segments` integer,
	`scheduled_at` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error_code` text,
	`error_message` text,
	`claimed_at` integer,
	`sent_at` integer,
	`delivered_at` integer,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `messages_idempotency_key_uq` ON `messages` (`idempotency_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_twilio_sid_uq` ON `messages` (`twilio_sid`);--> statement-breakpoint
CREATE INDEX `messages_created_at_idx` ON `messages` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_direction_created_at_idx` ON `messages` (`direction`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_status_created_at_idx` ON `messages` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `messages_due_idx` ON `messages` (`status`,`scheduled_at`);--> statement-breakpoint
CREATE INDEX `messages_phone_created_at_idx` ON `messages` (`phone`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_contact_id_idx` ON `messages` (`contact_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_campaign_id_idx` ON `messages` (`campaign_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_broadcast_id_idx` ON `messages` (`broadcast_id`);--> statement-breakpoint
CREATE TABLE `templates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'sms' NOT NULL,
	`subject` text,
	`content` text NOT NULL,
	`variables` text DEFAULT '[]' NOT NULL,
	`created_by` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `templates_created_at_idx` ON `templates` (`created_at`);--> statement-breakpoint
CREATE TABLE `auto_responders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`keyword` text NOT NULL,
	`category` text DEFAULT 'solar_inquiry' NOT NULL,
	`trigger_type` text DEFAULT 'keyword_match' NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`response_count` integer DEFAULT 0 NOT NULL,
	`conditions` text,
	`ai_settings` text,
	`responses` text,
	`escalation` text,
	`scheduling` text,
	`analytics` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `auto_responders_active_idx` ON `auto_responders` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `alert_profiles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`department` text DEFAULT 'Solar Sales' NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`contact_info` text,
	`priority` text DEFAULT 'medium' NOT NULL,
	`response_template` text,
	`escalation_time` integer DEFAULT 15 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alert_profiles_active_idx` ON `alert_profiles` (`is_active`,`id`);--> statement-breakpoint
CREATE TABLE `keyword_banks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`category` text NOT NULL,
	`keywords` text DEFAULT '[]' NOT NULL,
	`priority` text DEFAULT 'medium' NOT NULL,
	`alert_profile_id` integer,
	`auto_response` text,
	`use_ai` integer DEFAULT false NOT NULL,
	`ai_prompt` text,
	`trigger_count` integer DEFAULT 0 NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`alert_profile_id`) REFERENCES `alert_profiles`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `keyword_banks_active_idx` ON `keyword_banks` (`is_active`,`id`);--> statement-breakpoint
CREATE INDEX `keyword_banks_alert_profile_idx` ON `keyword_banks` (`alert_profile_id`);--> statement-breakpoint
CREATE TABLE `chat_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`suggestions` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chat_messages_user_created_at_idx` ON `chat_messages` (`user_id`,`created_at`);